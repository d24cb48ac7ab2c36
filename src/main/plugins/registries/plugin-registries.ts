import { AllowanceRegistry } from './allowance-registry.ts';
import { CommandRegistry } from './command-registry.ts';
import { HookRegistry } from './hook-registry.ts';
import { MethodRegistry } from './method-registry.ts';
import { PanelRegistry } from './panel-registry.ts';
import { PromptBlockRegistry } from './prompt-block-registry.ts';
import { ProviderRegistry } from './provider-registry.ts';
import { StatusSegmentRegistry } from './status-segment-registry.ts';
import { ToolRegistry } from './tool-registry.ts';
import { WalletRegistry } from './wallet-registry.ts';

/** The registries plugin contributions install into, one per kind. */
export interface PluginRegistries {
  readonly tools: ToolRegistry;
  readonly promptBlocks: PromptBlockRegistry;
  readonly statusSegments: StatusSegmentRegistry;
  readonly panels: PanelRegistry;
  readonly providers: ProviderRegistry;
  readonly wallets: WalletRegistry;
  readonly allowances: AllowanceRegistry;
  readonly commands: CommandRegistry;
  readonly hooks: HookRegistry;
  readonly methods: MethodRegistry;
}

export function createPluginRegistries(): PluginRegistries {
  return {
    tools: new ToolRegistry(),
    promptBlocks: new PromptBlockRegistry(),
    statusSegments: new StatusSegmentRegistry(),
    panels: new PanelRegistry(),
    providers: new ProviderRegistry(),
    wallets: new WalletRegistry(),
    allowances: new AllowanceRegistry(),
    commands: new CommandRegistry(),
    hooks: new HookRegistry(),
    methods: new MethodRegistry(),
  };
}
