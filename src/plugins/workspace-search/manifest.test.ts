import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { PluginManifest, secretKeys } from '../../shared/plugins/index.ts';
import { INDEXES_PANEL_ID, INDEXES_PANEL_TITLE } from './indexes-panel.ts';
import { createRepoMapTool } from './repo-map-tool.ts';
import { createSearchTool } from './search-tool.ts';

test('the manifest declares the search and repo_map tools exactly as the plugin does, read-only, with its Settings panel, started on first use', () => {
  const manifest = PluginManifest.parse(JSON.parse(readFileSync(join(import.meta.dirname, 'manifest.json'), 'utf8')));
  const tools = [createSearchTool({ indexOf: () => null }), createRepoMapTool({ indexOf: () => null })];
  expect(manifest.contributes).toEqual([
    ...tools.map((tool) => ({ kind: 'tool', ...tool.spec })),
    { kind: 'panel', id: INDEXES_PANEL_ID, title: INDEXES_PANEL_TITLE, sections: [], actions: [] },
  ]);
  for (const tool of tools) expect(tool.spec.readOnly).toBe(true);
  expect(manifest.activationEvents).toEqual(['onTool', 'onPanel']);
  // The embeddings endpoint's key is a secret, dropped when the base URL changes.
  expect(secretKeys(manifest.configuration)).toEqual(['embeddings.apiKey']);
  expect(manifest.configuration?.properties['embeddings']).toMatchObject({ properties: { apiKey: { boundTo: 'baseUrl' } } });
});
