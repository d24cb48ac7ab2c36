// The sandbox main decides for each bash call reaches the real workspace-tools plugin process, which runs
// the line inside it: the core is built by createApp (policy, sandbox, commands, approvals) with the bundled
// plugin's tools, and every result says which sandbox its command ran in.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { pluginToolSource } from '../../src/main/agent-bridge/index.ts';
import { loadShellParser, shellClassify } from '../../src/main/policy/index.ts';
import type { App } from '../../src/main/app.ts';
import type { ApprovalAnswer, ApprovalQuestion } from '../../src/shared/agent/index.ts';
import type { ToolResultMessage } from '../../src/shared/sessions/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { type BundledRuntime, startBundled, tempDir } from '../plugins-bundled/bundled-runtime.ts';
import { textOf } from './agent-harness.ts';
import { calls, MODEL, ScriptedProvider, text, type Script } from './scripted-provider.ts';

let runtime: BundledRuntime | undefined;
let under: AppUnderTest | undefined;
let data: ReturnType<typeof tempDir>;
let ws: ReturnType<typeof tempDir>;
let workspace: string;

beforeAll(() => loadShellParser());
beforeEach(async () => {
  data = tempDir('amber-sandbox-data-');
  ws = tempDir('amber-sandbox-ws-');
  workspace = realpathSync(ws.path);
  writeFileSync(join(workspace, 'README.md'), 'hello\n');
  runtime = await startBundled(['workspace-tools'], { dataDir: join(data.path, 'plugins') });
});

afterEach(async () => {
  await under?.close();
  under = undefined;
  await runtime?.close();
  runtime = undefined;
  ws.remove();
  data.remove();
});

const bash = (command: string) => ({ name: 'bash', args: { command } });
/** One run of the scripted model: the calls, a closing reply, and "done" to the silent confirm turn after a run that used tools. */
const run = (...c: ReturnType<typeof bash>[]): Script[] => [calls(...c), text('ok'), text('done')];

/** The core over the real plugin, a scripted model, and `answer` for every question (recorded). */
function core(scripts: Script[], answer: ApprovalAnswer = 'deny'): { app: App; sessionId: string; asked: ApprovalQuestion[]; provider: ScriptedProvider } {
  const provider = new ScriptedProvider(scripts);
  under = openApp({
    prefix: 'amber-sandbox-data-',
    app: (dir) => ({
      home: dir,
      workspace,
      defaultModel: { provider: 'fake', modelId: MODEL.id },
      resolveProvider: () => ({ stream: provider.stream, model: MODEL }),
      tools: pluginToolSource(runtime!.service.registries.tools, { denied: [join(dir, 'data')], isBundled: (id) => id === 'workspace_tools' }),
    }),
  });
  const built = under.app;
  const asked: ApprovalQuestion[] = [];
  built.approvals.onDidChange((change) => {
    if (change.kind !== 'requested') return;
    asked.push(change.question);
    built.approvals.answer(change.question.id, answer);
  });
  const sessionId = built.sessions.create({ title: 'sandbox', cwd: workspace }).id;
  return { app: built, sessionId, asked, provider };
}

const results = (a: App, sessionId: string): ToolResultMessage[] =>
  a.sessions.path(sessionId).flatMap((e) => (e.type === 'message' && e.message.role === 'toolResult' ? [e.message as ToolResultMessage] : []));
const sandboxOf = (r: ToolResultMessage | undefined) => (r?.['details'] as { sandbox?: string; network?: boolean } | undefined) ?? {};

describe('the sandbox of a bash call', () => {
  test('in read mode a line judged read-only that writes cannot change the workspace; in write mode the same line can', async () => {
    // `file -C -m magic` compiles magic.mgc: a write, yet it reads as a plain `file`. Whatever the judge
    // makes of it, in read mode the sandbox (not the judge) keeps the workspace unchanged.
    const line = 'file -C -m magic';
    writeFileSync(join(workspace, 'magic'), '0 string hello Hello text\n');
    const judgedReadOnly = shellClassify(line, { workspaceRoot: workspace }).class === 'read_only';
    const { app: a, sessionId, asked } = core([...run(bash('cat README.md > /dev/null; true'), bash(line)), ...run(bash(line))]);
    a.policy.setMode(sessionId, 'read');
    await a.agent.prompt(sessionId, 'go');
    const [plain, inRead] = results(a, sessionId);
    expect(plain?.status, textOf(plain)).toBe('ok');
    expect(sandboxOf(plain)).toMatchObject({ sandbox: 'read', network: false });
    if (judgedReadOnly) expect(sandboxOf(inRead)).toMatchObject({ sandbox: 'read', network: false });
    else expect(inRead?.status).toBe('denied');
    expect(existsSync(join(workspace, 'magic.mgc'))).toBe(false);

    a.policy.setMode(sessionId, 'write');
    await a.agent.prompt(sessionId, 'again');
    const inWrite = results(a, sessionId)[2];
    expect(inWrite?.status, textOf(inWrite)).toBe('ok');
    expect(sandboxOf(inWrite)).toMatchObject({ sandbox: 'write', network: false });
    expect(existsSync(join(workspace, 'magic.mgc'))).toBe(true);
    expect(asked).toEqual([]);
  });

  test('"run unsandboxed" runs that one call outside the sandbox; the identical next call asks again', async () => {
    const line = 'rm -rf build';
    mkdirSync(join(workspace, 'build'));
    const { app: a, sessionId, asked } = core([...run(bash(line)), ...run(bash(line))], 'unsandboxed');
    await a.agent.prompt(sessionId, 'go');
    expect(existsSync(join(workspace, 'build'))).toBe(false);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ sandboxed: true, command: { line } });
    const [first] = results(a, sessionId);
    expect(first?.status, textOf(first)).toBe('ok');
    expect(sandboxOf(first).sandbox).toBe('unsandboxed');

    await a.agent.prompt(sessionId, 'again');
    expect(asked).toHaveLength(2);
    expect(sandboxOf(results(a, sessionId)[1]).sandbox).toBe('unsandboxed');
  });

  test('/sandbox network on gives the next call of the conversation network in write mode; yolo always has it, read never', async () => {
    const { app: a, sessionId } = core([...run(bash('ls')), ...run(bash('ls')), ...run(bash('ls')), ...run(bash('ls'))]);
    await a.agent.prompt(sessionId, 'go');
    expect(sandboxOf(results(a, sessionId)[0])).toMatchObject({ sandbox: 'write', network: false });

    expect(await a.commands.tree.run('/sandbox network on', { sessionId })).toMatchObject({ kind: 'ok', text: expect.stringMatching(/now run with network/) });
    await a.agent.prompt(sessionId, 'go');
    expect(sandboxOf(results(a, sessionId)[1])).toMatchObject({ sandbox: 'write', network: true });

    a.policy.setMode(sessionId, 'read');
    await a.agent.prompt(sessionId, 'go');
    expect(sandboxOf(results(a, sessionId)[2])).toMatchObject({ sandbox: 'read', network: false });

    await a.commands.tree.run('/sandbox network off', { sessionId });
    a.policy.setMode(sessionId, 'yolo');
    await a.agent.prompt(sessionId, 'go');
    expect(sandboxOf(results(a, sessionId)[3])).toMatchObject({ sandbox: 'yolo', network: true });
  });

  test('allowing a line asked about for a protected path lets that call alone write it', async () => {
    mkdirSync(join(workspace, '.git', 'hooks'), { recursive: true });
    const hook = join(workspace, '.git', 'hooks', 'pre-commit');
    const line = "echo 'make test' > .git/hooks/pre-commit";
    const { app: a, sessionId, asked } = core([...run(bash(line)), ...run(bash('echo again >> .git/hooks/pre-commit'))], 'once');
    await a.agent.prompt(sessionId, 'go');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ protectedPath: true, sandboxed: true });
    const [first] = results(a, sessionId);
    expect(first?.status, textOf(first)).toBe('ok');
    expect(sandboxOf(first)).toMatchObject({ sandbox: 'write' });
    expect(readFileSync(hook, 'utf8')).toBe('make test\n');
    // The next change to it is asked about again: the approval held for that call alone.
    await a.agent.prompt(sessionId, 'again');
    expect(asked).toHaveLength(2);
    expect(readFileSync(hook, 'utf8')).toBe('make test\nagain\n');
  });

  test('git commit asks, because the sandbox keeps .git read-only, and commits once allowed; git status runs without asking', async () => {
    execFileSync('git', ['init', '-q'], { cwd: workspace });
    const commit = 'git add README.md && git -c user.email=a@b -c user.name=a commit -qm first';
    const { app: a, sessionId, asked } = core([...run(bash('git status --short')), ...run(bash(commit))], 'once');
    await a.agent.prompt(sessionId, 'status');
    expect(asked).toHaveLength(0);
    expect(textOf(results(a, sessionId)[0])).toContain('?? README.md');
    await a.agent.prompt(sessionId, 'commit');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ protectedPath: true, sandboxed: true });
    const committed = results(a, sessionId)[1];
    expect(committed?.status, textOf(committed)).toBe('ok');
    expect(sandboxOf(committed)).toMatchObject({ sandbox: 'write' });
    expect(execFileSync('git', ['log', '--format=%s'], { cwd: workspace, encoding: 'utf8' })).toBe('first\n');
  });

  test('a denied git commit changes nothing in .git', async () => {
    execFileSync('git', ['init', '-q'], { cwd: workspace });
    const { app: a, sessionId, asked } = core(run(bash('git add README.md && git -c user.email=a@b -c user.name=a commit -qm first')), 'deny');
    await a.agent.prompt(sessionId, 'commit');
    expect(asked).toHaveLength(1);
    expect(results(a, sessionId)[0]?.status).toBe('denied');
    expect(existsSync(join(workspace, '.git', 'index'))).toBe(false);
  });

  test('where no sandbox can start, a line that is not read-only asks, and allowed runs unsandboxed; a read-only one runs without asking', async () => {
    const { app: a, sessionId, asked } = core(run(bash('touch made.txt'), bash('cat README.md')), 'once');
    a.sandbox.markUnavailable('bwrap: No permissions to create a new namespace.');
    await a.agent.prompt(sessionId, 'go');
    expect(asked.map((q) => [q.command?.line, q.sandboxed])).toEqual([['touch made.txt', false]]);
    const [touched, read] = results(a, sessionId);
    expect(sandboxOf(touched).sandbox).toBe('unsandboxed');
    expect(sandboxOf(read).sandbox).toBe('unsandboxed');
    expect(existsSync(join(workspace, 'made.txt'))).toBe(true);
    expect(textOf(read)).toContain('hello');
  });
});
