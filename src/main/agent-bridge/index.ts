// Connects the agent loop to the plugin runtime: tools, prompt blocks and providers come from plugins.
export { pluginToolSource, userReadOnlyTools, type PluginToolSourceOptions } from './plugin-tool-source.ts';
export { pluginPromptBlocks } from './plugin-prompt-blocks.ts';
export { EARLY_CHECK_MAX_AGE_MS, EarlyAllowanceChecks, guardWithAllowances, type ModelDescriber, pluginProviderResolver } from './plugin-provider-resolver.ts';
export { imagesForModel, unseenImageNote, withStoredImages } from './stored-images.ts';
export { ToolCatalog, type ToolCatalogOptions } from './tool-catalog.ts';
