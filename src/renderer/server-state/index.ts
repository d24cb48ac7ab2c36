export { bindApiEvents, withPending, withPlugin } from './bind-api-events.ts';
export { createServerQueryClient } from './server-query-client.ts';
export { serverKeys } from './server-keys.ts';
export { ServerStateProvider } from './ServerStateProvider.tsx';
export { usePluginListing } from './use-plugin-listing.ts';
export { useSettingsChannel } from './use-settings-channel.ts';
