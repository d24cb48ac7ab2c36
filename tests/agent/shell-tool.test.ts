import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { pluginToolSource } from '../../src/main/agent-bridge/index.ts';
import type { ApprovalQuestion } from '../../src/shared/agent/index.ts';
import type { ToolResultMessage } from '../../src/shared/sessions/index.ts';
import { type BundledRuntime, startBundled, tempDir, untilGone } from '../plugins-bundled/bundled-runtime.ts';
import { markedSleep, startedPids } from '../plugins-bundled/marked-processes.ts';
import { createHarness, type Harness, textOf } from './agent-harness.ts';
import { calls, text } from './scripted-provider.ts';

// The agent runs bash from the real workspace-tools plugin process under the real policy: the classifier
// decides what runs freely, what asks and what is denied; output streams as tool_execution_update events.

let h: Harness | undefined;
let runtime: BundledRuntime | undefined;
let data: ReturnType<typeof tempDir>;
let ws: ReturnType<typeof tempDir>;
let workspace: string;

beforeEach(async () => {
  data = tempDir('amber-shell-data-');
  ws = tempDir('amber-shell-ws-');
  workspace = realpathSync(ws.path);
  mkdirSync(join(workspace, 'build'));
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
const results = (harness: Harness): ToolResultMessage[] => harness.pathMessages().filter((m): m is ToolResultMessage => m.role === 'toolResult');
// workspace-tools is bundled: its bash goes down the shell path (judged by its line, run in the sandbox).
const tools = () => pluginToolSource(runtime!.service.registries.tools, { denied: [data.path], isBundled: (id) => id === 'workspace_tools' });

describe('the bash tool in a run', () => {
  test('write mode runs ls and node --version freely and asks before rm -rf build', async () => {
    const asked: ApprovalQuestion[] = [];
    h = createHarness([calls(bash('ls'), bash('node --version')), calls(bash('rm -rf build')), text('ok')], {
      tools: tools(),
      workspace,
      approver: async (q) => (asked.push(q), 'deny'),
    });
    expect((await h.agent.prompt(h.sessionId, 'go')).reason).toBe('stop');
    const r = results(h);
    expect(r.map((x) => x.status)).toEqual(['ok', 'ok', 'denied']);
    expect(textOf(r[0])).toBe('build\n\n[Exit code 0]');
    expect(textOf(r[1])).toMatch(/^v\d+\.\d+\.\d+\n\n\[Exit code 0\]$/);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.command).toMatchObject({ line: 'rm -rf build', class: 'destructive', reason: 'rm -r deletes whole folders.' });
    expect(existsSync(join(workspace, 'build'))).toBe(true);
  });

  test('read mode denies a destructive command without asking and still runs a read-only one', async () => {
    const asked: ApprovalQuestion[] = [];
    h = createHarness([calls(bash('rm -rf build'), bash('ls')), text('ok')], { tools: tools(), workspace, approver: async (q) => (asked.push(q), 'once') });
    h.policy!.setMode(h.sessionId, 'read');
    await h.agent.prompt(h.sessionId, 'go');
    expect(results(h).map((x) => x.status)).toEqual(['denied', 'ok']);
    expect(textOf(results(h)[0])).toMatch(/read mode.*rm -r deletes whole folders/);
    expect(asked).toEqual([]);
    expect(existsSync(join(workspace, 'build'))).toBe(true);
  });

  test('a long command streams into its card, and Stop ends it with no process left', async () => {
    // The command runs in a pid namespace of its own: its background sleep is found from here by its marked argument.
    const marker = markedSleep();
    h = createHarness([calls(bash(`sleep ${marker} & echo started; for i in $(seq 1 1000); do echo tick$i; sleep 0.05; done; wait`))], {
      tools: tools(),
      workspace,
    });
    const run = h.agent.start(h.sessionId, 'go');
    const first = await h.next('tool_execution_update', (e) => e.text.includes('started'));
    const [pid] = await startedPids(() => first.text, marker);
    // A second batch of output reaches the card while the command still runs.
    await h.next('tool_execution_update', (e) => e !== first && e.text.includes('tick'));
    expect(h.events.some((e) => e.type === 'tool_execution_end')).toBe(false);
    h.agent.abort(h.sessionId);
    expect((await run.done).reason).toBe('aborted');
    expect(results(h).map((x) => x.status)).toEqual(['error']);
    await untilGone(pid!);
  });
});
