import type { ContributionKind } from '../../../shared/plugins/index.ts';
import type { PluginConnection } from '../edge/plugin-connection.ts';
import type { PluginCaller, StreamSinks, ToolUpdateSinks } from './contribution-installer.ts';
import type { PluginDescriptor } from './plugin-discovery.ts';
import type { ContributionStatus, PluginState } from './plugin-info.ts';
import { PluginLogRing } from './plugin-log-ring.ts';

/** What the runtime knows of one plugin: the catalog reads it, its supervisor changes it. */
export interface PluginRecord {
  descriptor: PluginDescriptor;
  enabled: boolean;
  state: PluginState;
  reason: string | null;
  conn: PluginConnection | null;
  /** What main's calls into the running process go through (the connection, watched for idleness). */
  caller: PluginCaller | null;
  contributions: ContributionStatus[];
  /** Kinds declared at the last activation; kept after it stops, so Settings can say what it adds. */
  declares: Set<ContributionKind>;
  crashes: number[];
  restartTimer: ReturnType<typeof setTimeout> | null;
  queue: Promise<void>;
  /** The newest lines of its log, stdout and stderr, within MAX_PLUGIN_LOG_BYTES. */
  logs: PluginLogRing;
  dropped: { messages: number; logs: number; events: number };
  eventsInFlight: number;
  /** Routes of the plugin's stream events and tool updates; kept across starts, since its manifest's tools outlive a process. */
  sinks: StreamSinks;
  toolUpdates: ToolUpdateSinks;
  /** The start a first use set off, shared by every use that arrives before it settles. */
  starting: Promise<void> | null;
  /** Whether the manifest's declarations and activation listeners are installed (their ledger entries clear it). */
  staticsUp: boolean;
  /** Events that arrived on an `onEvent:` topic while the plugin was not started: delivered once it is. */
  pendingEvents: { topic: string; payload: unknown }[];
}

export function newPluginRecord(descriptor: PluginDescriptor): PluginRecord {
  return {
    descriptor,
    enabled: false,
    state: 'registered',
    reason: null,
    conn: null,
    caller: null,
    contributions: [],
    declares: new Set(),
    crashes: [],
    restartTimer: null,
    queue: Promise.resolve(),
    logs: new PluginLogRing(),
    dropped: { messages: 0, logs: 0, events: 0 },
    eventsInFlight: 0,
    sinks: new Map(),
    toolUpdates: new Map(),
    starting: null,
    staticsUp: false,
    pendingEvents: [],
  };
}
