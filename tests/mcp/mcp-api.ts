// What the MCP route tests share: an API call that must succeed, and waiting for an `mcp.changed` event.
import type { ApiRouter } from '../../src/main/api/index.ts';
import type { McpListing } from '../../src/shared/api/index.ts';

/** The value of a call that must succeed; a refusal fails the test with its code and sentence. */
export async function callOk<T = McpListing>(router: ApiRouter, channel: string, input: unknown = {}): Promise<T> {
  const r = await router.call(channel, input);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

/** The first listing among `seen` (recorded so far) or announced from now on that satisfies `predicate`. */
export function untilMcpChange(router: ApiRouter, seen: McpListing[], predicate: (l: McpListing) => boolean): Promise<McpListing> {
  const found = seen.find(predicate);
  if (found) return Promise.resolve(found);
  return new Promise((resolve) => {
    const sub = router.subscribe((event, payload) => {
      if (event === 'mcp.changed' && predicate(payload as McpListing)) {
        sub.dispose();
        resolve(payload as McpListing);
      }
    });
  });
}
