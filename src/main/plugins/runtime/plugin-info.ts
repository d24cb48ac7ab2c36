import type { PluginState } from '../../../shared/api/index.ts';
import type { ContributionKind } from '../../../shared/plugins/index.ts';
import type { PluginSource } from './plugin-discovery.ts';

export type { PluginState };

export interface ContributionStatus {
  kind: ContributionKind;
  key: string;
  status: 'installed' | 'declined';
  reason?: string;
  /** Set while the plugin runs (HostApi.$setTools) rather than declared by `capabilities()`. */
  runtime?: boolean;
  /** Declared by the manifest (`contributes`) and installed before the plugin runs; using it starts the plugin. */
  static?: boolean;
}

/** What the UI shows for one plugin. */
export interface PluginInfo {
  id: string;
  name: string;
  version: string;
  description: string;
  category: string;
  source: PluginSource;
  enabled: boolean;
  state: PluginState;
  /** Why it is Failed or Incompatible, as a sentence. */
  reason: string | null;
  pid: number | null;
  contributions: ContributionStatus[];
  /**
   * A user plugin the user has not yet agreed to run: switching it on needs `{ confirm: true }`, given
   * once the user has read what it may do (Settings asks). Bundled plugins never need it.
   */
  needsConfirmation: boolean;
  /**
   * Where it runs: `own` process, or the `shared` plugin process of its group (bundled plugins by default,
   * a user plugin only when the user groups it). Takes effect at its next start.
   */
  process: PluginProcessMode;
  /** The kinds of contribution it declared when it last ran (installed or declined), and those its manifest declares. */
  declares: ContributionKind[];
  /** Crashes within the crash window. */
  recentCrashes: number;
  /** Messages dropped because the plugin flooded: host calls (main side), log lines (plugin side), events to it. */
  dropped: { messages: number; logs: number; events: number };
}

/** Where a plugin runs: a process of its own, or the shared plugin process of its group. */
export type PluginProcessMode = 'own' | 'shared';
