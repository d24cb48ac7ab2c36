// Entry of a plugin process (Electron utility process or forked Node child). It listens on the pipe to main
// and either runs one plugin (`--amber-plugin=ID`) or, as a shared host (`--amber-shared=GROUP`), each
// plugin main opens on a channel of its own. Per plugin it exposes PluginApi on the 'plugin' channel, wraps
// main's HostApi on the 'host' channel, runs main's notes and sends its own on the 'note' channel, then says 'ready'.
import { AsyncLocalStorage } from 'node:async_hooks';
import { type Endpoint, expose, wrap } from 'comlink';
import { type ChannelRouter, createChannelRouter } from '../../shared/plugin-wire/index.ts';
import type { HostApi, LogLevel, PluginNoteMethod } from '../../shared/plugin-wire/index.ts';
import { CHANNEL_CLOSE, CHANNEL_CLOSED, CHANNEL_HOST, CHANNEL_NOTE, CHANNEL_OPEN, CHANNEL_PLUGIN, CHANNEL_READY } from '../../shared/plugin-wire/index.ts';
import { connectToParent, type ParentPipe } from './parent-pipe.ts';
import { type HostNote, PluginHost } from './plugin-host.ts';

const pipe = connectToParent();
if (!pipe) {
  console.error('The plugin host must be started by Amber (as a utility process or a forked child).');
  process.exit(2);
}
pipe.onClose(() => process.exit(0));

/** Where console output and unhandled rejections go: the plugin whose code is running, when it is known. */
const current = new AsyncLocalStorage<PluginHost>();
let single: PluginHost | null = null;
const stderr = console.error.bind(console);
const route =
  (level: LogLevel) =>
  (...args: unknown[]) => {
    const host = current.getStore() ?? single;
    // Output no plugin can be named for goes to the process's stderr, which main logs for each plugin here.
    if (host) host.log(level, asText(args));
    else stderr(`[${level}] ${asText(args)}`);
  };
console.log = route('info');
console.info = console.log;
console.debug = route('debug');
console.warn = route('warn');
console.error = route('error');
process.on('unhandledRejection', (reason) =>
  route('error')(`Unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`),
);

if (process.argv.some((a) => a.startsWith('--amber-shared='))) serveShared(pipe);
else serveOne(pipe);

/** One plugin on the whole pipe. */
function serveOne(parent: ParentPipe): void {
  const send = (envelope: Envelope) => parent.send(envelope);
  const router = createChannelRouter(send);
  parent.onMessage((m) => {
    if ((m as { ch?: unknown } | null)?.ch === CHANNEL_CLOSE) process.exit(0);
    router.dispatch(m);
  });
  single = new PluginHost(wrap<HostApi>(router.endpoint(CHANNEL_HOST) as unknown as Endpoint) as unknown as HostApi, { note: noteSender(send) });
  expose(single, router.endpoint(CHANNEL_PLUGIN) as unknown as Endpoint);
  runNotes(router, single);
  parent.send({ ch: CHANNEL_READY });
}

type Envelope = { ch: string; m?: unknown };

interface Channel {
  readonly host: PluginHost;
  dispatch(message: unknown): void;
  close(): void;
}

/** Each plugin main opens gets its own router, PluginHost and comlink endpoints; `p` names it on the pipe. */
function serveShared(parent: ParentPipe): void {
  const channels = new Map<string, Channel>();
  /** How often each module was loaded here: a second load gets a URL of its own, so fresh module state. */
  const loads = new Map<string, number>();
  const importModule = (url: string) => {
    const n = (loads.get(url) ?? 0) + 1;
    loads.set(url, n);
    return import(n === 1 ? url : `${url}?load=${n}`);
  };
  const open = (p: string): Channel => {
    let closed = false;
    const send = (envelope: Envelope) => {
      if (!closed) parent.send({ p, ...envelope });
    };
    const router = createChannelRouter(send);
    const host = new PluginHost(wrap<HostApi>(router.endpoint(CHANNEL_HOST) as unknown as Endpoint) as unknown as HostApi, {
      importModule,
      note: noteSender(send),
    });
    expose(host, router.endpoint(CHANNEL_PLUGIN) as unknown as Endpoint);
    runNotes(router, host);
    return {
      host,
      // Whatever the plugin's code does in answer runs, and logs, as that plugin.
      dispatch: (message) => current.run(host, () => router.dispatch(message)),
      close() {
        closed = true;
        host.dispose();
      },
    };
  };
  parent.onMessage((m) => {
    const { p, ch } = m as { p?: string; ch?: unknown };
    if (p === undefined) {
      if (ch === CHANNEL_CLOSE) process.exit(0);
      return;
    }
    if (ch === CHANNEL_OPEN) {
      channels.get(p)?.close();
      channels.set(p, open(p));
      parent.send({ p, ch: CHANNEL_READY });
      return;
    }
    const channel = channels.get(p);
    if (!channel) return;
    if (ch === CHANNEL_CLOSE) {
      channels.delete(p);
      channel.close();
      parent.send({ p, ch: CHANNEL_CLOSED });
      return;
    }
    const { p: _p, ...envelope } = m as { p: string };
    channel.dispatch(envelope);
  });
}

/** The host's notes to main (one-way HostApi calls, see HOST_NOTE_METHODS): one message each, written together per turn of the loop. */
function noteSender(send: (envelope: Envelope) => void): HostNote {
  return (method, args) => send({ ch: CHANNEL_NOTE, m: [[method, args]] });
}

/** Runs main's notes (admitted by the pipe's gate: PLUGIN_NOTE_METHODS only) in order; nothing is answered, a failure is logged. */
function runNotes(router: ChannelRouter, host: PluginHost): void {
  router.endpoint(CHANNEL_NOTE).addEventListener('message', (event) => {
    if (typeof event !== 'object' || !('data' in event) || !Array.isArray(event.data)) return;
    for (const [method, args] of event.data as [PluginNoteMethod, Parameters<PluginHost[PluginNoteMethod]>][]) {
      host[method](...args).catch((e: unknown) => host.log('error', `A note of ${method} from main failed: ${e instanceof Error ? e.message : String(e)}`));
    }
  });
}

function asText(args: unknown[]): string {
  return args.map((a) => (typeof a === 'string' ? a : safeJson(a))).join(' ');
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
