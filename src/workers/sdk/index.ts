// The plugin SDK: the one module a plugin author imports.
export { decline, definePlugin } from './define-plugin.ts';
export type * from './define-plugin.ts';
export type { ToolOutput } from '../../shared/tools/index.ts';
export type { ModelInfo, ProviderEvent, ProviderRequest, StreamFn } from '../../shared/providers/index.ts';
// Inside a plugin there is only the plugin's own command result: the SDK keeps the short name for it.
export type { PluginCommandResult as CommandResult } from '../../shared/plugins/index.ts';
export type { AllowanceVerdict, PluginCommandResult, PanelAction, PanelRow, PanelViewModel, StatusSegment, WalletState } from '../../shared/plugins/index.ts';
export type { HookPayloads, HookPoint, HookResults } from '../../shared/plugins/index.ts';
export type { ProviderProbeRequest, ProviderProbeResult } from '../../shared/plugins/index.ts';
