import { performance } from 'node:perf_hooks';
import { expect } from 'vitest';
import type { BundledRuntime } from './bundled-runtime.ts';

/** Where a test's searches run: the workspace, and the data folder the tools must never show. */
export interface SearchScope {
  workspace: string;
  dataDir: string;
}

/** A tool result's text. */
export const toolText = (out: { content: { text: string }[] }): string => out.content.map((c) => c.text).join('');

/** One `search` call through the plugin's process. */
export const searchCall = (r: BundledRuntime, args: unknown, scope: SearchScope) =>
  r.service.registries.tools.execute('search', args, undefined, { sessionId: 's1', workspace: scope.workspace, denied: [scope.dataDir] });

/** A search answered from the index: calls again while the first build is still going (each call waits for it a while). */
export async function indexedSearch(r: BundledRuntime, args: Record<string, unknown>, scope: SearchScope): Promise<string> {
  for (let i = 0; i < 30; i++) {
    const out = await searchCall(r, args, scope);
    expect(out.isError, toolText(out)).toBe(false);
    if (!toolText(out).includes('The index is still building')) return toolText(out);
  }
  throw new Error('The index was still building after 30 calls.');
}

/** Searches until `found` holds, failing once `withinMs` have passed since `since`; returns the time it took. */
export async function searchableWithin(
  r: BundledRuntime,
  args: Record<string, unknown>,
  found: (out: string) => boolean,
  since: number,
  scope: SearchScope,
  withinMs = 1000,
): Promise<number> {
  for (;;) {
    const out = await indexedSearch(r, args, scope);
    const took = performance.now() - since;
    if (found(out)) return took;
    if (took > withinMs) throw new Error(`Not as expected after ${Math.round(took)} ms: ${out}`);
  }
}
