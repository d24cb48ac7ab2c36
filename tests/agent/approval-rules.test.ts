import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { pluginToolSource } from '../../src/main/agent-bridge/index.ts';
import type { ApprovalQuestion, ApprovalReply } from '../../src/shared/agent/index.ts';
import type { ToolResultMessage } from '../../src/shared/sessions/index.ts';
import { type BundledRuntime, startBundled, tempDir } from '../plugins-bundled/bundled-runtime.ts';
import { createHarness, type Harness } from './agent-harness.ts';
import { calls, text } from './scripted-provider.ts';

// "Always" on a shell question from the real workspace-tools plugin's bash tool is a stored rule: a harness
// rebuilt on the same SQLite file (a restart) runs a line under the same prefix without asking; a worse
// line, and a conversation in another workspace folder, still ask; "everywhere" holds in the other folder.

let h: Harness | undefined;
let runtime: BundledRuntime | undefined;
let data: ReturnType<typeof tempDir>;
let ws: ReturnType<typeof tempDir>;
let workspace: string;
let other: string;

beforeEach(async () => {
  data = tempDir('amber-rules-data-');
  ws = tempDir('amber-rules-ws-');
  workspace = realpathSync(ws.path);
  mkdirSync(join(workspace, 'project'));
  mkdirSync(join(workspace, 'other'));
  other = join(workspace, 'other');
  workspace = join(workspace, 'project');
  runtime = await startBundled(['workspace-tools'], { dataDir: data.path });
});

afterEach(async () => {
  await h?.close();
  h = undefined;
  await runtime?.close();
  runtime = undefined;
  ws.remove();
  data.remove();
});

const bash = (command: string) => ({ name: 'bash', args: { command } });
const results = (of: Harness): ToolResultMessage[] => of.pathMessages().filter((m): m is ToolResultMessage => m.role === 'toolResult');
const tools = () => pluginToolSource(runtime!.service.registries.tools, { denied: [data.path], isBundled: (id) => id === 'workspace_tools' });

/** A harness over `dir`'s database whose questions are recorded and answered with `reply`. */
function rebuilt(scripts: Parameters<typeof createHarness>[0], root: string, reply: ApprovalReply, asked: ApprovalQuestion[]): Harness {
  return createHarness(scripts, { tools: tools(), workspace: root, dir: data.path, approver: async (q) => (asked.push(q), reply) });
}

test('"always" on a shell prefix survives a rebuilt harness on the same data: the prefix runs without asking, a destructive line still asks', async () => {
  const first: ApprovalQuestion[] = [];
  h = rebuilt([calls(bash('frobnicate --fast')), text('ok')], workspace, { answer: 'always_tool' }, first);
  await h.agent.prompt(h.sessionId, 'go');
  expect(first.map((q) => q.command?.prefixes)).toEqual([['frobnicate']]);
  expect(results(h).map((r) => r.status)).not.toContain('denied');
  await h.close();

  const second: ApprovalQuestion[] = [];
  h = rebuilt([calls(bash('frobnicate --slow'), bash('rm -rf build')), text('ok')], workspace, { answer: 'deny' }, second);
  expect(h.policy!.rules()).toEqual([
    expect.objectContaining({ effect: 'allow', tool: 'bash', command: 'frobnicate', workspace, source: expect.objectContaining({ via: 'approval' }) }),
  ]);
  await h.agent.prompt(h.sessionId, 'go');
  expect(second.map((q) => q.command?.line)).toEqual(['rm -rf build']);
  expect(results(h).map((r) => r.status === 'denied')).toEqual([false, true]);
});

test('a folder rule does not hold in another workspace folder; an "everywhere" answer does', async () => {
  const asked: ApprovalQuestion[] = [];
  h = rebuilt([calls(bash('frobnicate --fast')), text('ok')], workspace, { answer: 'always_tool' }, asked);
  await h.agent.prompt(h.sessionId, 'go');
  await h.close();

  h = rebuilt([calls(bash('frobnicate --fast')), text('ok')], other, { answer: 'always_tool', scope: 'global' }, asked);
  await h.agent.prompt(h.sessionId, 'go');
  expect(asked.map((q) => q.workspaceRoot)).toEqual([workspace, other]);
  await h.close();

  h = rebuilt([calls(bash('frobnicate --again')), text('ok')], join(other, '..'), { answer: 'deny' }, asked);
  await h.agent.prompt(h.sessionId, 'go');
  expect(asked).toHaveLength(2);
  expect(h.policy!.rules().map((r) => r.workspace ?? 'everywhere')).toEqual([workspace, 'everywhere']);
});
