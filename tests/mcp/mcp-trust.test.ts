// Trust in MCP servers and tools: MCP tools are write tools for the policy until the user trusts their
// server (then its readOnlyHint'ed tools run as read-only) or the tool itself; the trust is main's setting,
// set over the API, and nothing a plugin declares or stores can grant it.
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ApiRouter } from '../../src/main/api/index.ts';
import type { App } from '../../src/main/app.ts';
import { PolicyService, type ToolOrigin, type ToolRequest } from '../../src/main/policy/index.ts';
import { MCP_TRUST_KEY } from '../../src/shared/api/index.ts';
import type { ToolSpec } from '../../src/shared/tools/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

let t: AppUnderTest;
let app: App;
let api: ApiRouter;
let policy: PolicyService;

beforeEach(() => {
  t = openApp({ prefix: 'amber-mcp-trust-', app: (dir) => ({ dataDir: dir }) });
  ({ app, api } = t);
  policy = new PolicyService({ settings: app.settings });
});

afterEach(() => t.close());

const spec = (name: string, readOnly: boolean): ToolSpec => ({
  name,
  description: name,
  parameters: { type: 'object', properties: {} },
  readOnly,
  pathParams: [],
});
const echo = spec('mcp__everything__echo', true);
const add = spec('mcp__everything__toggle-simulated-logging', false);
const mcp: ToolOrigin = { pluginId: 'mcp', bundled: true };
const req = (tool: ToolSpec, origin: ToolOrigin = mcp): ToolRequest => ({ sessionId: 's1', workspaceRoot: t.dir, tool, toolCallId: 'c1', args: {}, origin });

const setTrust = (input: unknown): Promise<unknown> => t.call('mcp.setTrust', input);

test('an MCP tool whose server claims readOnlyHint is still asked about, and refused in read mode, until the user trusts it', () => {
  expect(policy.decide(req(echo))).toMatchObject({ kind: 'ask' });
  policy.setMode('s1', 'read');
  expect(policy.decide(req(echo))).toMatchObject({ kind: 'deny', reason: expect.stringMatching(/not confirmed in Settings/) });
});

test('a trusted server lets its readOnlyHint tools run as read-only; its other tools are still asked about', async () => {
  expect(await setTrust({ server: 'everything', trusted: true })).toEqual({ servers: ['everything'], tools: [] });
  expect(policy.decide(req(echo))).toEqual({ kind: 'allow' });
  expect(policy.decide(req(add))).toMatchObject({ kind: 'ask' });
  policy.setMode('s1', 'read');
  expect(policy.decide(req(echo))).toEqual({ kind: 'allow' });
  await setTrust({ server: 'everything', trusted: false });
  expect(policy.decide(req(echo))).toMatchObject({ kind: 'deny' });
});

test('a trusted tool runs as read-only whatever its annotations say, and only that tool', async () => {
  await setTrust({ tool: 'mcp__everything__toggle-simulated-logging', trusted: true });
  expect(policy.decide(req(add))).toEqual({ kind: 'allow' });
  expect(policy.decide(req(echo))).toMatchObject({ kind: 'ask' });
  const r = await api.call('mcp.trust', {});
  expect(r).toEqual({ ok: true, value: { servers: [], tools: ['mcp__everything__toggle-simulated-logging'] } });
});

test('trusting a server does not trust a server whose name merely starts like it', async () => {
  await setTrust({ server: 'every', trusted: true });
  expect(policy.decide(req(echo))).toMatchObject({ kind: 'ask' });
});

test('a user plugin cannot borrow MCP trust by naming its tool like an MCP tool', async () => {
  await setTrust({ server: 'everything', trusted: true });
  await setTrust({ tool: 'mcp__everything__toggle-simulated-logging', trusted: true });
  for (const origin of [
    { pluginId: 'evil', bundled: false },
    { pluginId: 'mcp', bundled: false },
  ]) {
    expect(policy.decide(req(echo, origin))).toMatchObject({ kind: 'ask' });
    expect(policy.decide(req(add, origin))).toMatchObject({ kind: 'ask' });
  }
});

test('the MCP plugin cannot trust its own tools: trust in its stored config is ignored, and unreadable trust trusts nothing', async () => {
  app.sessions.setSetting(
    'plugin.mcp.config',
    JSON.stringify({ trust: { servers: ['everything'], tools: ['mcp__everything__toggle-simulated-logging'] }, [MCP_TRUST_KEY]: { servers: ['everything'] } }),
  );
  expect(policy.decide(req(echo))).toMatchObject({ kind: 'ask' });
  expect(policy.decide(req(add))).toMatchObject({ kind: 'ask' });
  app.sessions.setSetting(MCP_TRUST_KEY, '{"servers": "everything"');
  expect(policy.decide(req(echo))).toMatchObject({ kind: 'ask' });
});

test('trust changes are checked at the API edge: names that are not MCP server or tool names are refused', async () => {
  for (const input of [
    { server: '../x', trusted: true },
    { tool: 'read', trusted: true },
    { tool: 'mcp__everything__echo' },
    { servers: ['everything'], trusted: true },
  ]) {
    const r = await api.call('mcp.setTrust', input);
    expect(r.ok).toBe(false);
  }
  expect(app.sessions.getSetting(MCP_TRUST_KEY)).toBeNull();
});

test('a call waiting for approval runs once the user trusts its server, without an answer', async () => {
  const live = app.policy;
  let onAsked!: (tool: string) => void;
  const asked = new Promise<string>((resolve) => (onAsked = resolve));
  live.setApprover((q) => {
    onAsked(q.toolName);
    return new Promise(() => {});
  });
  const decision = live.authorize(req(echo), new AbortController().signal);
  expect(await asked).toBe('mcp__everything__echo');
  await setTrust({ server: 'everything', trusted: true });
  expect(await decision).toEqual({ allowed: true });
});

test('a server name that could blur which server a tool belongs to is refused, so trust in one never covers another', async () => {
  const r = await api.call('mcp.import', { json: JSON.stringify({ mcpServers: { every__thing: { command: 'x' }, every_: { command: 'x' } } }) });
  expect(r).toMatchObject({ ok: false, error: { message: expect.stringMatching(/'every__thing' is not a server name.*'every_' is not a server name/) } });
  for (const server of ['every__thing', 'every_']) expect((await api.call('mcp.setTrust', { server, trusted: true })).ok).toBe(false);
});
