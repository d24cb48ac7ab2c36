import { z } from 'zod';
import { LogLevel } from '../plugins/index.ts';

/** How many of a plugin's newest log lines the window is sent. */
export const PLUGIN_LOG_LINES_SHOWN = 200;

/** One line of a plugin's log as Settings → Advanced shows it (its log calls, stdout and stderr). */
export const PluginLogLineView = z.object({ time: z.number(), level: LogLevel, message: z.string() });
export type PluginLogLineView = z.infer<typeof PluginLogLineView>;

/** The newest lines main keeps of one plugin's log, oldest first. */
export const PluginLogs = z.object({ id: z.string(), lines: z.array(PluginLogLineView).max(PLUGIN_LOG_LINES_SHOWN) });
export type PluginLogs = z.infer<typeof PluginLogs>;
