import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { PluginManifest } from '../../shared/plugins/index.ts';
import { createSearchTool } from './search-tool.ts';

test('the manifest declares the search tool exactly as the plugin does, read-only, started on first use', () => {
  const manifest = PluginManifest.parse(JSON.parse(readFileSync(join(import.meta.dirname, 'manifest.json'), 'utf8')));
  const tool = createSearchTool({ indexOf: () => null });
  expect(manifest.contributes).toEqual([{ kind: 'tool', ...tool.spec }]);
  expect(tool.spec.readOnly).toBe(true);
  expect(manifest.activationEvents).toEqual(['onTool']);
});
