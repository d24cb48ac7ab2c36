// The plugin host's end of its one pipe to main. The same code runs in an Electron utility process
// (`process.parentPort`, structured clone) and in a child started by the fork launcher (newline-delimited
// JSON on the file descriptor named by `--amber-pipe=N`); which one is decided at runtime.
import { Socket } from 'node:net';
import { applyMessage, readCall, readEnvelope, readNotes, readReply } from '../../shared/plugin-wire/index.ts';
import { createLineBatcher } from '../../shared/line-batcher.ts';
import { createLineSplitter } from '../../shared/plugin-wire/index.ts';
import {
  CHANNEL_CLOSE,
  CHANNEL_HOST,
  CHANNEL_NOTE,
  CHANNEL_OPEN,
  CHANNEL_PLUGIN,
  DEFAULT_MAX_LINE_BYTES,
  MAX_NOTES_PER_MESSAGE,
  PLUGIN_API_METHODS,
  PLUGIN_NOTE_METHODS,
  ROUTE_ID,
} from '../../shared/plugin-wire/index.ts';

export interface ParentPipe {
  readonly kind: 'utility' | 'fork';
  send(message: unknown): void;
  /** Messages from main that passed the gate (`admitFromMain`), rebuilt. */
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when main goes away; the host then exits. */
  onClose(listener: () => void): void;
}

interface ElectronParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

const PLUGIN_METHODS: ReadonlySet<string> = new Set(PLUGIN_API_METHODS);
const PLUGIN_NOTES: ReadonlySet<string> = new Set(PLUGIN_NOTE_METHODS);
/**
 * Main is trusted to send what a call needs (a provider request carries the whole conversation, images
 * included), so the line cap this way is only a bound on memory, far above the cap main applies to plugins.
 */
export const MAX_LINE_FROM_MAIN_BYTES = 64 * DEFAULT_MAX_LINE_BYTES;

/**
 * What the plugin host lets through from main, rebuilt: calls of known PluginApi methods with plain-data
 * arguments, notes (one-way calls) of the methods main sends so, plain-data replies to the host's own
 * calls, and the request to close; in a shared host, each
 * of those for a named plugin, and the request to open a plugin's channel. Null for anything else.
 */
export function admitFromMain(message: unknown): unknown {
  // A shared host's envelopes also name their plugin; the rest is checked as any envelope.
  if (typeof message === 'object' && message !== null && 'p' in message) {
    const { p, ...rest } = message as { p: unknown };
    if (typeof p !== 'string' || !ROUTE_ID.test(p)) return null;
    if ((rest as { ch?: unknown }).ch === CHANNEL_OPEN) return { p, ch: CHANNEL_OPEN };
    const admitted = admitFromMain(rest);
    return admitted === null ? null : { p, ...(admitted as object) };
  }
  const envelope = readEnvelope(message);
  if (!envelope) return null;
  if (envelope.ch === CHANNEL_CLOSE) return { ch: CHANNEL_CLOSE };
  if (envelope.ch === CHANNEL_PLUGIN) {
    const call = readCall(envelope.m, PLUGIN_METHODS);
    return call.ok ? { ch: CHANNEL_PLUGIN, m: applyMessage(call.value.id, call.value.method, call.value.args) } : null;
  }
  if (envelope.ch === CHANNEL_HOST) {
    const reply = readReply(envelope.m);
    return reply.ok ? { ch: CHANNEL_HOST, m: reply.value } : null;
  }
  if (envelope.ch === CHANNEL_NOTE) {
    const notes = readNotes(envelope.m, PLUGIN_NOTES, MAX_NOTES_PER_MESSAGE);
    return notes.ok ? { ch: CHANNEL_NOTE, m: notes.value.map((n) => [n.method, n.args]) } : null;
  }
  return null;
}

/** Delivers what passes the gate; a message that breaks the handler is the host's problem, logged, not fatal. */
function gated(listener: (message: unknown) => void): (message: unknown) => void {
  return (message) => {
    try {
      const admitted = admitFromMain(message);
      if (admitted !== null) listener(admitted);
    } catch (e) {
      console.error(`A message from main could not be handled: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
}

export function connectToParent(proc: NodeJS.Process = process): ParentPipe | null {
  // Electron's types declare parentPort as always present; under Node it is undefined.
  const port = (proc as NodeJS.Process & { parentPort?: ElectronParentPort }).parentPort;
  if (port && typeof port.postMessage === 'function') {
    return {
      kind: 'utility',
      send: (m) => port.postMessage(m),
      onMessage: (l) => {
        const admit = gated(l);
        port.on('message', (e) => admit(e.data));
      },
      // A utility process is ended by Electron with its parent.
      onClose: () => {},
    };
  }
  const fd = Number(/^--amber-pipe=(\d+)$/.exec(proc.argv.find((a) => a.startsWith('--amber-pipe=')) ?? '')?.[1] ?? Number.NaN);
  if (!Number.isInteger(fd)) return null;
  let socket: Socket;
  try {
    socket = new Socket({ fd, readable: true, writable: true });
  } catch {
    return null;
  }
  const listeners: ((message: unknown) => void)[] = [];
  const closeListeners: (() => void)[] = [];
  let closed = false;
  // One write per turn of the loop, however many messages the host sends in it.
  const batcher = createLineBatcher((chunk) => {
    if (!closed) socket.write(chunk);
  }, setImmediate);
  // Whatever is queued when the process exits (a reply before a close) is written then, synchronously.
  proc.once?.('exit', () => batcher.flush());
  const close = () => {
    if (closed) return;
    closed = true;
    batcher.clear();
    for (const l of closeListeners.splice(0)) l();
  };
  const splitter = createLineSplitter(
    MAX_LINE_FROM_MAIN_BYTES,
    (line) => {
      let message: unknown;
      try {
        message = JSON.parse(Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString('utf8'));
      } catch {
        return;
      }
      for (const l of listeners) l(message);
    },
    // A line this long from main means the framing is lost: nothing more from it can be trusted.
    close,
  );
  socket.on('data', (chunk: Buffer) => splitter.push(chunk));
  socket.on('end', close);
  socket.on('close', close);
  socket.on('error', close);
  return {
    kind: 'fork',
    send: (m) => {
      if (!closed) batcher.push(JSON.stringify(m));
    },
    onMessage: (l) => void listeners.push(gated(l)),
    onClose: (l) => {
      if (closed) l();
      else closeListeners.push(l);
    },
  };
}
