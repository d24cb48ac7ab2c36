// The plugin runtime's face: the only module the rest of main imports from src/main/plugins.
// Its rooms: runtime/ (PluginService, the catalog; a PluginSupervisor per plugin process; lazy start; the
// crash rules; ledger and installer), registries/ (the contribution kinds and the hooks), edge/ (the
// connection with its gate, the host API), launchers/ (fork and shared host; Electron's is in main/electron).
//
// One PluginService per app (createApp owns it). What its users call:
//
// Agent loop (src/main/agent)
//   plugins.registries.tools.specs(): ToolSpec[]                        — every tool now installed
//   plugins.registries.tools.execute(name, args, signal?): Promise<ToolOutput>
//                                                                       — never throws; failures, a dead plugin,
//                                                                         a timeout or an abort are isError outputs
//   plugins.registries.promptBlocks.entries()                           — rendered by the agent's prompt assembly
//                                                                         through agent-bridge's pluginPromptBlocks
//   plugins.registries.providers.list(): ListedProvider[]                 — id, flavor, presets, models, pluginId
//   plugins.registries.providers.stream(id): StreamFn | undefined       — never throws; ends with done | error
//   plugins.registries.allowances.check({ providerId, modelId }): Promise<{ allowed, allowanceId?, reason? }>
//   plugins.registries.hooks.run(point, payload, { onError, timeoutMs? }): Promise<{ payload, stop? }>
//                                                                       — the plugins' hooks in load order; never throws
//   plugins.events.emit(topic, payload)                                 — e.g. 'agent.event'; plugins subscribe
//
// UI API (src/main/api)
//   plugins.list(): PluginInfo[]; plugins.get(id): PluginInfo           — state, reason, contributions, pid, drops;
//                                                                         state 'idle': a lazy plugin that is on, its
//                                                                         manifest's declarations installed, no process
//   plugins.setState(id, on, { confirm? }): Promise<PluginInfo>          — the one write path; live; persisted;
//                                                                         a user plugin's first switch-on needs confirm
//   plugins.onDidChange(listener): Disposable                           — every state change
//   plugins.rescan(): Promise<string[]>; plugins.userFolder             — new user plugins; <dataDir>/plugins
//   plugins.logs(id): PluginLogLine[]                                   — its newest lines, MAX_PLUGIN_LOG_BYTES in all
//   plugins.probe(id, { flavor, baseUrl, apiKey? }, { timeoutMs? }): Promise<{ ok, models, message }>
//                                                                       — a provider plugin's connection test;
//                                                                         throws `unavailable` when it is off
//   plugins.registries.statusSegments.list() / .onDidChange(listener)   — data for the status bar
//   plugins.registries.panels.list() / .action(panelId, actionId) / .onDidChange(listener)
//   plugins.registries.wallets.list() / .refresh(id)
//   plugins.registries.commands.list() / .run(path, args): Promise<{ output, isError }>
//   plugins.registries.methods.call(pluginId, table, name, args)       — a plugin's declared method, zod-checked both ways
//   Every registry has entries(), get(key), size and onDidChange(listener): Disposable.
//
// Names across the plugin pipe: `*Contribution` is what a plugin declares (the SDK's shapes, functions
// included; `*Declaration` in src/shared is their wire form); `Installed*` is main's registry entry for one
// (its functions call back into the plugin's process); `Listed*` is a registry's list() item (the entry's
// data and its plugin id, no functions); `*View` (src/shared/api) is what the window receives.
//
// Events on plugins.events: 'plugin.stateChanged' { id, state, reason, enabled }, and whatever plugins emit
// (never on main's topics: see src/shared/plugins/core-topics.ts).
// Config: plugins read `plugin.<id>.config` (a JSON object in the settings table) live at each read, or
// the config function given to the constructor. PluginConfigService reads and writes it against the
// manifest's `configuration` schema (Settings' form, `/set plugin.<id>.<key>`).
export { PluginConfigService } from './runtime/plugin-config-service.ts';
export type { PluginConfigServiceOptions, PluginConfigState, PluginConfigStorage } from './runtime/plugin-config-service.ts';
export { PluginService, readConfigSetting } from './runtime/plugin-service.ts';
export type {
  ContributionStatus,
  PluginConfigSource,
  PluginInfo,
  PluginServiceOptions,
  PluginState,
  PluginStateStore,
  SetStateOptions,
} from './runtime/plugin-service.ts';
export { MAX_PLUGIN_LOG_BYTES, MAX_PLUGIN_LOG_LINE_CHARS, type PluginLogLine } from './runtime/plugin-log-ring.ts';
export { createForkLauncher, defaultPluginHostEntry, DEFAULT_EXEC_ARGV, DEFAULT_MAX_HEAP_MB } from './launchers/fork-launcher.ts';
export type { ForkLauncherOptions } from './launchers/fork-launcher.ts';
export { createSharedHostLauncher } from './launchers/shared-host-launcher.ts';
export type { SharedHostInfo, SharedHostLauncher, SharedLaunchRequest } from './launchers/shared-host-launcher.ts';
export { describeExit, FRUGAL_V8_FLAGS, formatBytes, lineFrame, pluginEnvironment } from './launchers/plugin-launcher.ts';
export type { LaunchRequest, PipeFrame, PluginExit, PluginLauncher, PluginProcess } from './launchers/plugin-launcher.ts';
export { findDescendants, parseStat, signalAll } from './launchers/process-tree.ts';
export { PluginConnection, type ConnectionDrops } from './edge/plugin-connection.ts';
export type { ElicitationAsker } from './edge/main-host-api.ts';
export { throttleOutput } from './launchers/output-throttle.ts';
export { ProcessEvents } from './launchers/process-events.ts';
export { discoverPlugins } from './runtime/plugin-discovery.ts';
export type { DiscoveryProblem, PluginDescriptor, PluginSource } from './runtime/plugin-discovery.ts';
export type { PluginRegistries } from './registries/plugin-registries.ts';
export type { PluginEventBus } from './runtime/plugin-event-bus.ts';
export { ToolRegistry } from './registries/tool-registry.ts';
export type { PromptBlockRegistry } from './registries/prompt-block-registry.ts';
export type { StatusSegmentRegistry, ListedStatusSegment } from './registries/status-segment-registry.ts';
export type { PanelRegistry, ListedPanel } from './registries/panel-registry.ts';
export { ProviderRegistry, type ListedProvider } from './registries/provider-registry.ts';
export type { WalletRegistry, ListedWallet } from './registries/wallet-registry.ts';
export { type AllowanceDecision, AllowanceRegistry, type ListedAllowance } from './registries/allowance-registry.ts';
export type { CommandRegistry, ListedCommand } from './registries/command-registry.ts';
export { HookRegistry, type InstalledHook, type HookOutcome, type RunHookOptions } from './registries/hook-registry.ts';
export type { InstalledMethod, MethodRegistry } from './registries/method-registry.ts';
export { BUNDLED_PLUGINS } from './bundled-plugins.ts';
