// Several plugins in one process. A shared plugin host is one plugin process (forked Node child or Electron
// utility process, started by the launcher given here) that carries many plugins, each on a channel of its
// own: every envelope on the host's pipe names its plugin (`{ p, ch, m }`). To PluginService each plugin
// still looks like a process of its own — a PluginProcess with its own connection, call gate, timeouts,
// ledger entry, state and crash count — so nothing above this file knows where a plugin runs.
//
// The trade-off (docs/plugins.md, "Where a plugin runs"): plugins in one host share a heap and an event
// loop. One that is switched off is closed alone and its neighbours go on; one that blocks its event loop
// past the grace period, or a crash of the host, ends the host, and every plugin in it fails with its own
// reason and restarts under its own crash count.
import { CHANNEL_CLOSE, CHANNEL_CLOSED, CHANNEL_OPEN } from '../../../shared/plugins/index.ts';
import { ProcessEvents } from './process-events.ts';
import { describeExit, type LaunchRequest, type PluginExit, type PluginLauncher, type PluginProcess } from './plugin-launcher.ts';

export interface SharedLaunchRequest extends LaunchRequest {
  /** The host to join: plugins naming the same group share one process (default 'shared'). */
  group?: string;
}

export type SharedHostLauncher = (request: SharedLaunchRequest) => PluginProcess;

export interface SharedHostInfo {
  group: string;
  pid: number | undefined;
  plugins: string[];
  /** Envelopes from the host that named no plugin it carries, or none at all. */
  unrouted: number;
}

interface Slot {
  readonly pluginId: string;
  open: boolean;
  exit: PluginExit | null;
  readonly events: ProcessEvents;
}

interface Host {
  readonly group: string;
  readonly proc: PluginProcess;
  readonly slots: Map<string, Slot>;
  /** The plugin whose stop ended the host, when main had to end it for one plugin's sake. */
  culprit: string | null;
  ended: boolean;
  unrouted: number;
}

/**
 * A launcher whose plugins share host processes, one per group. `launchHost` starts a host process (it is
 * asked with `shared: true`); the host is started with the first plugin of its group and ended when the
 * last one is closed, so a group with no plugin on holds no process.
 */
export function createSharedHostLauncher(launchHost: PluginLauncher): SharedHostLauncher & { hosts(): SharedHostInfo[] } {
  const hosts = new Map<string, Host>();

  const finish = (host: Host, slot: Slot, exit: PluginExit) => {
    if (slot.exit) return;
    slot.open = false;
    slot.exit = exit;
    host.slots.delete(slot.pluginId);
    slot.events.exit(exit);
    // The last plugin out closes the host: an empty group holds no process.
    if (host.slots.size === 0 && !host.ended) {
      host.ended = true;
      if (hosts.get(host.group) === host) hosts.delete(host.group);
      host.proc.disconnect();
    }
  };

  const start = (group: string): Host => {
    const proc = launchHost({ pluginId: group, shared: true });
    const host: Host = { group, proc, slots: new Map(), culprit: null, ended: false, unrouted: 0 };
    proc.onMessage((frame) => {
      const routed = frame.route?.() ?? null;
      const slot = routed ? host.slots.get(routed.pluginId) : undefined;
      if (!routed || !slot || slot.exit) {
        host.unrouted++;
        return;
      }
      const { ch } = routed.frame.peek();
      if (ch === CHANNEL_CLOSED) {
        // The last plugin out waits for the host to end, so "switched off" still means "no process left".
        if (host.slots.size === 1 && !host.ended) {
          host.ended = true;
          if (hosts.get(host.group) === host) hosts.delete(host.group);
          host.proc.disconnect();
        } else finish(host, slot, { code: 0, signal: null });
        return;
      }
      slot.events.message(routed.frame);
    });
    proc.onOutput((stream, text) => {
      // The host's own output cannot be told apart by plugin (plugins' console goes through their channels).
      for (const slot of host.slots.values()) slot.events.output(stream, text);
    });
    proc.onExit((exit) => {
      const closing = host.ended;
      host.ended = true;
      if (hosts.get(group) === host) hosts.delete(group);
      for (const slot of host.slots.values()) {
        // A plugin that had closed its channel: the host ended because it was the last one.
        if (closing && !slot.open) {
          finish(host, slot, { code: 0, signal: null });
          continue;
        }
        const own = host.culprit === null || host.culprit === slot.pluginId;
        const reason = own ? describeExit(exit) : `(shared with other plugins) was ended because the plugin '${host.culprit}' did not stop in time`;
        finish(host, slot, { ...exit, reason: own && host.culprit === null ? `(shared with other plugins) ${reason}` : reason });
      }
    });
    hosts.set(group, host);
    return host;
  };

  const launcher = (request: SharedLaunchRequest): PluginProcess => {
    const group = request.group ?? 'shared';
    let host = hosts.get(group);
    if (!host || host.ended || !host.proc.connected) host = start(group);
    const current = host;
    const { pluginId } = request;
    if (current.slots.has(pluginId)) throw new Error(`The plugin '${pluginId}' is already running in the shared plugin process.`);
    const slot: Slot = { pluginId, open: true, exit: null, events: new ProcessEvents() };
    current.slots.set(pluginId, slot);
    if (!current.proc.send({ p: pluginId, ch: CHANNEL_OPEN })) {
      finish(current, slot, { code: null, signal: null, reason: 'could not be reached: the shared plugin process is not running' });
    }
    return {
      get pid() {
        return current.proc.pid;
      },
      get connected() {
        return slot.open && slot.exit === null && current.proc.connected;
      },
      send(message) {
        if (!slot.open || slot.exit || typeof message !== 'object' || message === null) return false;
        return current.proc.send({ p: pluginId, ...(message as Record<string, unknown>) });
      },
      get congested() {
        return current.proc.congested ?? false;
      },
      get queuedBytes() {
        return current.proc.queuedBytes ?? 0;
      },
      onMessage: slot.events.onMessage,
      onExit: slot.events.onExit,
      onOutput: slot.events.onOutput,
      disconnect() {
        if (!slot.open || slot.exit) return;
        slot.open = false;
        // The host closes this plugin's channel and answers `closed`; its neighbours go on.
        if (!current.proc.send({ p: pluginId, ch: CHANNEL_CLOSE })) finish(current, slot, { code: 0, signal: null });
      },
      kill(signal) {
        if (slot.exit) return;
        // One plugin cannot be ended alone inside a shared process: the host goes, and its neighbours
        // restart. Main only gets here when the plugin did not close within the grace period.
        current.culprit ??= pluginId;
        current.proc.kill(signal);
      },
    };
  };

  return Object.assign(launcher, {
    hosts: (): SharedHostInfo[] => [...hosts.values()].map((h) => ({ group: h.group, pid: h.proc.pid, plugins: [...h.slots.keys()], unrouted: h.unrouted })),
  });
}
