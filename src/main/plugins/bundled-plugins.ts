// The plugins that ship with Amber: folder names under src/plugins/ (each with a manifest.json), in the
// order they are activated. The Electron build reads this list too and builds each as its own entry.
export const BUNDLED_PLUGINS: readonly string[] = [
  'openai-compatible',
  'anthropic',
  'workspace-tools',
  'workspace-search',
  'budget',
  'wallet',
  'metrics',
  'mcp',
  'memory',
  'example',
];
