import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { PluginManifest } from '../../shared/plugins/index.ts';
import { createBashTool } from './bash-tool.ts';
import { WORKSPACE_TOOLS } from './workspace-tools.ts';

test('the manifest declares each workspace tool exactly as the plugin does, so the model sees the same tools before and after it starts', () => {
  const manifest = PluginManifest.parse(JSON.parse(readFileSync(join(import.meta.dirname, 'manifest.json'), 'utf8')));
  // The manifest is written for bash; on Windows without bash the running plugin offers PowerShell instead.
  const specs = WORKSPACE_TOOLS.map((tool) => (tool.spec.name === 'bash' ? createBashTool({ platform: 'linux' }).spec : tool.spec));
  expect(manifest.contributes).toEqual(specs.map((spec) => ({ kind: 'tool', ...spec })));
  expect(manifest.activationEvents).toEqual(['onTool']);
});
