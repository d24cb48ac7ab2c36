// Entry of a plugin process (Electron utility process or forked Node child). It listens on the pipe to main,
// exposes PluginApi on the 'plugin' channel, wraps main's HostApi on the 'host' channel, then says 'ready'.
import { type Endpoint, expose, wrap } from 'comlink';
import { createChannelRouter } from '../../shared/plugins/channel-router.ts';
import type { HostApi } from '../../shared/plugins/plugin-api.ts';
import { CHANNEL_CLOSE, CHANNEL_HOST, CHANNEL_PLUGIN, CHANNEL_READY } from '../../shared/plugins/protocol.ts';
import { connectToParent } from './parent-pipe.ts';
import { PluginHost } from './plugin-host.ts';

const pipe = connectToParent();
if (!pipe) {
  console.error('The plugin host must be started by Amber (as a utility process or a forked child).');
  process.exit(2);
}

const router = createChannelRouter((envelope) => pipe.send(envelope));
pipe.onMessage((m) => {
  if ((m as { ch?: unknown } | null)?.ch === CHANNEL_CLOSE) process.exit(0);
  router.dispatch(m);
});
pipe.onClose(() => process.exit(0));

const host = new PluginHost(wrap<HostApi>(router.endpoint(CHANNEL_HOST) as unknown as Endpoint) as unknown as HostApi);
expose(host, router.endpoint(CHANNEL_PLUGIN) as unknown as Endpoint);

// Plugin code that writes to the console is logged through main, bounded like every other log line.
const asText = (args: unknown[]) => args.map((a) => (typeof a === 'string' ? a : safeJson(a))).join(' ');
console.log = (...args: unknown[]) => host.log('info', asText(args));
console.info = console.log;
console.debug = (...args: unknown[]) => host.log('debug', asText(args));
console.warn = (...args: unknown[]) => host.log('warn', asText(args));
console.error = (...args: unknown[]) => host.log('error', asText(args));

process.on('unhandledRejection', (reason) => host.log('error', `Unhandled rejection: ${reason instanceof Error ? reason.stack ?? reason.message : String(reason)}`));

pipe.send({ ch: CHANNEL_READY });

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
