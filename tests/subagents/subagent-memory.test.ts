// Child agents read memories but never write them: the real memory plugin, in its own process, refuses a
// remember call a child makes (main marks it a sub-agent's), and keeps the same call from the parent.
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { pluginToolSource } from '../../src/main/agent-bridge/index.ts';
import { isToolResult, type ToolResultMessage } from '../../src/shared/sessions/index.ts';
import { TaskDetails } from '../../src/shared/subagents/index.ts';
import { type BundledRuntime, startBundled } from '../plugins-bundled/bundled-runtime.ts';
import { call, openSubagentRig, say, type SubagentRig, task } from './subagent-rig.ts';

let rig: SubagentRig | undefined;
let runtime: BundledRuntime | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
  await runtime?.close();
  runtime = undefined;
});

const resultsOf = (r: SubagentRig, sessionId: string): ToolResultMessage[] =>
  r.app.sessions.path(sessionId).flatMap((e) => (e.type === 'message' && isToolResult(e.message) ? [e.message] : []));
const memories = async () => (await runtime!.service.registries.commands.run(['memory'], ['list'])).output;
const textOf = (m: ToolResultMessage | undefined) => (m?.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');

test("a child's remember call is refused and keeps nothing; the parent's own call is kept", async () => {
  rig = await openSubagentRig({
    app: (dir) => ({ tools: pluginToolSource(runtime!.service.registries.tools, { denied: [join(dir, 'data')], isBundled: () => true }) }),
    before: async (dir) => {
      runtime = await startBundled(['memory'], { dataDir: dir, config: new Map([['memory', { dataDir: join(dir, 'memory-data'), mode: 'auto' }]]) });
    },
  });
  const r = rig;
  r.route((q) => {
    if (q.child) return q.turns === 0 ? call('remember', { text: 'The child says the build uses make' }) : say('child finished');
    if (q.turns === 0) return task([{ description: 'rememberer', prompt: 'Remember how the build runs.' }]);
    return q.turns === 1 ? call('remember', { text: 'The parent says releases happen on Tuesdays' }) : say('ok');
  });
  await r.app.agent.prompt(r.parentId, 'go');

  const taskResult = resultsOf(r, r.parentId).find((m) => m.toolName === 'task')!;
  const child = TaskDetails.parse(taskResult['details']).subagents[0]!;
  const childRemember = resultsOf(r, child.childSessionId!).find((m) => m.toolName === 'remember');
  expect(childRemember?.isError).toBe(true);
  expect(textOf(childRemember)).toMatch(/A sub-agent cannot write memories/);
  const parentRemember = resultsOf(r, r.parentId).find((m) => m.toolName === 'remember');
  expect(textOf(parentRemember)).toBe('Remembered as #1.');
  expect(await memories()).toBe('#1 [user, global] The parent says releases happen on Tuesdays');
});
