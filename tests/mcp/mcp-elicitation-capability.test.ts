// Servers are told Amber can show a form only where it can: a connection given a way to ask (the plugin's) declares
// elicitation, and the reference server then offers its form tool; one without (Settings' Test) does not.
import { afterEach, expect, test } from 'vitest';
import { McpConnection } from '../../src/plugins/mcp/index.ts';
import { everythingStdio } from './everything-server.ts';

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.disconnect()));
});

async function toolsOf(options: ConstructorParameters<typeof McpConnection>[1]): Promise<string[]> {
  const conn = new McpConnection(everythingStdio(), options);
  open.push(conn);
  await conn.connect();
  expect(conn.state).toBe('connected');
  return conn.tools.map((t) => t.name);
}

test('the elicitation capability is declared only by a connection that can ask the user', async () => {
  expect(await toolsOf({ workspace: process.cwd() })).not.toContain('trigger-elicitation-request');
  expect(await toolsOf({ workspace: process.cwd(), onElicit: async () => ({ action: 'decline' }) })).toContain('trigger-elicitation-request');
});

test('a form asked during a call made without a call id belongs to no card, one with an id to that call; the answer goes back to the server', async () => {
  const asked: { server: string; callId?: string }[] = [];
  const conn = new McpConnection(everythingStdio(), {
    workspace: process.cwd(),
    onElicit: async (request) => {
      asked.push({ server: request.server, ...(request.callId ? { callId: request.callId } : {}) });
      return { action: 'accept', content: { name: 'Ann' } };
    },
  });
  open.push(conn);
  await conn.connect();
  // The call carries no call id (made outside a conversation), so the form belongs to no card.
  const result = await conn.callTool('trigger-elicitation-request', {});
  expect(asked).toEqual([{ server: 'everything' }]);
  expect(JSON.stringify(result)).toContain('- Name: Ann');
  await conn.callTool('trigger-elicitation-request', {}, { callId: 't42' });
  expect(asked[1]).toEqual({ server: 'everything', callId: 't42' });
});

test("a form the user takes longer to fill than the call's time limit does not end the call: the limit waits for the form", async () => {
  const conn = new McpConnection(everythingStdio('everything', { timeoutMs: 400 }), {
    workspace: process.cwd(),
    onElicit: async () => {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      return { action: 'accept', content: { name: 'Slow Sam' } };
    },
  });
  open.push(conn);
  await conn.connect();
  expect(JSON.stringify(await conn.callTool('trigger-elicitation-request', {}, { callId: 't1' }))).toContain('- Name: Slow Sam');
  // Without a form, the limit still ends a call that runs past it.
  await expect(conn.callTool('trigger-long-running-operation', { duration: 5, steps: 1 })).rejects.toThrow(/timed out/i);
});
