import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ApprovalAnswer, ApprovalQuestion, PolicyRule } from '../../shared/agent/index.ts';
import type { ToolSpec } from '../../shared/tools/index.ts';
import { SessionStore } from '../sessions/index.ts';
import { SettingsService } from '../settings/index.ts';
import { ApprovalBroker, type ApprovalChange } from './approval-broker.ts';
import { PolicyService } from './policy-service.ts';
import { QuestionWithdrawn, type Approver, type ToolOrigin, type ToolRequest } from './tool-gate.ts';
import { SandboxService } from './sandbox-service.ts';
import { loadShellParser } from './shell-classify.ts';
import { UnattendedApprovals } from './unattended-approvals.ts';

let dir: string;
let store: SessionStore;
let settings: SettingsService;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-policy-'));
  store = SessionStore.open(join(dir, 'amber.db'));
  settings = new SettingsService({ store });
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const pathSchema = { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } };
const read: ToolSpec = { name: 'read', description: 'read a file', parameters: pathSchema, readOnly: true, pathParams: ['path'] };
const write: ToolSpec = { name: 'write', description: 'write a file', parameters: pathSchema, readOnly: false, pathParams: ['path'] };
const shell: ToolSpec = {
  name: 'shell',
  description: 'run a command',
  parameters: { type: 'object', properties: { command: { type: 'string' } } },
  readOnly: false,
};

function req(tool: ToolSpec, args: Record<string, unknown>, sessionId = 's1', workspaceRoot = '/ws', origin?: ToolOrigin): ToolRequest {
  return { sessionId, workspaceRoot, tool, toolCallId: `c-${Math.random()}`, args, ...(origin ? { origin } : {}) };
}

/** An approver whose questions stay open until the test answers them. */
function manualApprover() {
  const open: { q: ApprovalQuestion; signal: AbortSignal; answer: (a: ApprovalAnswer) => void }[] = [];
  const wake: (() => void)[] = [];
  const approver: Approver = (q, questionSignal) =>
    new Promise((answer) => {
      open.push({ q, signal: questionSignal, answer });
      for (const w of wake.splice(0)) w();
    });
  const asked = async (n: number): Promise<void> => {
    while (open.length < n) await new Promise<void>((res) => wake.push(res));
  };
  return { open, approver, asked };
}

/** Lets every pending promise reaction run, so a call that is still waiting is seen to wait. */
const drained = () => new Promise<void>((res) => setImmediate(res));

function settledFlag(p: Promise<unknown>): { settled: boolean } {
  const flag = { settled: false };
  void p.then(() => (flag.settled = true));
  return flag;
}

const signal = new AbortController().signal;

describe('policy modes', () => {
  test('read mode runs read-only tools and refuses the rest', async () => {
    const policy = new PolicyService({ settings });
    policy.setMode('s1', 'read');
    expect(await policy.authorize(req(read, { path: '/etc/hosts' }), signal)).toEqual({ allowed: true });
    const refused = await policy.authorize(req(write, { path: 'a.txt' }), signal);
    expect(refused).toMatchObject({ allowed: false, reason: expect.stringMatching(/read mode/) });
  });

  test('write mode runs writes inside the workspace and asks about the rest; no approver means denied', async () => {
    const policy = new PolicyService({ settings });
    expect(policy.mode('s1')).toBe('write');
    expect(await policy.authorize(req(write, { path: 'src/a.ts' }), signal)).toEqual({ allowed: true });
    expect(policy.decide(req(write, { path: '/ws2/a.ts' }))).toMatchObject({ kind: 'ask', folder: '/ws2' });
    expect(policy.decide(req(shell, { command: 'ls' }))).toMatchObject({ kind: 'ask', folder: null });
    const denied = await policy.authorize(req(write, { path: '../outside.txt' }), signal);
    expect(denied).toMatchObject({ allowed: false, reason: expect.stringMatching(/No one is there to approve/) });
  });

  test('yolo mode runs everything, but stored deny rules still apply', async () => {
    const policy = new PolicyService({ settings });
    policy.setMode('s1', 'yolo');
    expect(await policy.authorize(req(shell, { command: 'rm -rf /' }), signal)).toEqual({ allowed: true });
    policy.addRule({ effect: 'deny', tool: 'shell' });
    expect(await policy.authorize(req(shell, { command: 'ls' }), signal)).toMatchObject({ allowed: false, reason: expect.stringMatching(/stored rule/) });
  });

  test('modes and rules persist in the settings table across instances', () => {
    const a = new PolicyService({ settings });
    a.setMode('s1', 'read');
    a.addRule({ effect: 'allow', folder: '/tmp/out' });
    const b = new PolicyService({ settings });
    expect(b.mode('s1')).toBe('read');
    expect(b.mode('s2')).toBe('write');
    expect(b.rules()).toEqual([{ id: expect.any(String), effect: 'allow', folder: '/tmp/out', source: { via: 'settings', at: expect.any(Number) } }]);
    expect(() => b.setRules([{ effect: 'allow' }])).toThrow(/names a tool, a folder or both/);
  });

  test('corrupt stored rules deny instead of allowing', async () => {
    const policy = new PolicyService({ settings });
    policy.setMode('s1', 'yolo');
    store.setSetting('policy.rules', '{"not": "rules"}');
    expect(await policy.authorize(req(shell, {}), signal)).toMatchObject({ allowed: false, reason: expect.stringMatching(/cannot be read/) });
  });

  test('an allow rule for a folder lets writes there run without asking; a deny rule for a folder wins', async () => {
    const policy = new PolicyService({ settings });
    policy.addRule({ effect: 'allow', folder: '/data' });
    expect(await policy.authorize(req(write, { path: '/data/x/y.txt' }), signal)).toEqual({ allowed: true });
    expect(policy.decide(req(write, { path: '/data2/y.txt' })).kind).toBe('ask');
    policy.addRule({ effect: 'deny', folder: '/ws/secret' });
    expect(policy.decide(req(read, { path: 'secret/key' })).kind).toBe('deny');
  });
});

function approverAnswering(answers: ApprovalAnswer[]) {
  const asked: ApprovalQuestion[] = [];
  const approver = async (q: ApprovalQuestion): Promise<ApprovalAnswer> => {
    asked.push(q);
    return answers.shift() ?? 'deny';
  };
  return { asked, approver };
}

describe('approval', () => {
  test('allow once runs this call and asks again next time', async () => {
    const { asked, approver } = approverAnswering(['once', 'deny']);
    const policy = new PolicyService({ settings, approver });
    expect(await policy.authorize(req(write, { path: '/elsewhere/a' }), signal)).toEqual({ allowed: true });
    expect(await policy.authorize(req(write, { path: '/elsewhere/a' }), signal)).toMatchObject({ allowed: false, reason: expect.stringMatching(/declined/) });
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({ sessionId: 's1', toolName: 'write', folder: '/elsewhere' });
  });

  test("a file tool's question says how each file it names is now: there with its size, or not there yet", async () => {
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'notes.txt'), 'twelve bytes');
    const { asked, approver } = approverAnswering(['deny', 'deny', 'deny']);
    const policy = new PolicyService({ settings, approver });
    await policy.authorize(req(write, { path: join(outside, 'notes.txt'), content: 'new' }), signal);
    await policy.authorize(req(write, { path: join(outside, 'new.txt'), content: 'new' }), signal);
    await policy.authorize(req(shell, { command: `rm -rf ${outside}` }), signal);
    expect(asked[0]!.files).toEqual([{ path: join(outside, 'notes.txt'), exists: true, bytes: 12 }]);
    expect(asked[1]!.files).toEqual([{ path: join(outside, 'new.txt'), exists: false }]);
    // A shell line names no file parameters: its question says what the line is instead.
    expect(asked[2]!.files).toBeUndefined();
  });

  test('always for this tool stores a rule for the tool in the workspace folder: another conversation there runs it, one elsewhere still asks', async () => {
    const { asked, approver } = approverAnswering(['always_tool']);
    const policy = new PolicyService({ settings, approver, clock: () => 1234 });
    expect(await policy.authorize(req(shell, { command: 'make' }), signal)).toEqual({ allowed: true });
    expect(await policy.authorize(req(shell, { command: 'make test' }), signal)).toEqual({ allowed: true });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.workspaceRoot).toBe('/ws');
    expect(policy.rules()).toEqual([
      { id: expect.any(String), effect: 'allow', tool: 'shell', workspace: '/ws', source: { via: 'approval', at: 1234, sessionId: 's1' } },
    ]);
    expect(policy.decide(req(shell, {}, 's2')).kind).toBe('allow');
    expect(policy.decide(req(shell, {}, 's3', '/elsewhere')).kind).toBe('ask');
  });

  test('always for this folder grants writes inside that folder, not beside it', async () => {
    const { asked, approver } = approverAnswering(['always_folder']);
    const policy = new PolicyService({ settings, approver });
    expect(await policy.authorize(req(write, { path: '/out/a.txt' }), signal)).toEqual({ allowed: true });
    expect(policy.decide(req(write, { path: '/out/sub/b.txt' })).kind).toBe('allow');
    expect(policy.decide(req(write, { path: '/out2/b.txt' })).kind).toBe('ask');
    expect(asked).toHaveLength(1);
  });

  test('an approver that throws or answers nonsense counts as a denial', async () => {
    const throwing = new PolicyService({
      settings,
      approver: async () => {
        throw new Error('window closed');
      },
    });
    expect((await throwing.authorize(req(shell, {}), signal)).allowed).toBe(false);
    const nonsense = new PolicyService({ settings, approver: async () => 'sure' as ApprovalAnswer });
    expect((await nonsense.authorize(req(shell, {}), signal)).allowed).toBe(false);
  });

  test('an abort while waiting for an answer denies', async () => {
    const policy = new PolicyService({ settings, approver: () => new Promise(() => {}) });
    const controller = new AbortController();
    const pending = policy.authorize(req(shell, {}), controller.signal);
    controller.abort();
    expect((await pending).allowed).toBe(false);
  });

  test('a detached approver no longer answers', async () => {
    const policy = new PolicyService({ settings });
    const attached = policy.setApprover(async () => 'once');
    expect((await policy.authorize(req(shell, {}), signal)).allowed).toBe(true);
    attached.dispose();
    expect((await policy.authorize(req(shell, {}), signal)).allowed).toBe(false);
  });
});

describe('one question per call', () => {
  test('parallel calls each get their own question and allow once runs only the call it answered; identical calls share one', async () => {
    const m = manualApprover();
    const policy = new PolicyService({ settings, approver: m.approver });
    const a = policy.authorize(req(write, { path: '/out/a.txt', content: 'x' }), signal);
    const twin = policy.authorize(req(write, { content: 'x', path: '/out/a.txt' }), signal);
    const b = policy.authorize(req(write, { path: '/out/b.txt', content: 'y' }), signal);
    await m.asked(2);
    await drained();
    expect(m.open.map((o) => (o.q.args as { path: string }).path)).toEqual(['/out/a.txt', '/out/b.txt']);
    m.open[0]!.answer('once');
    expect(await a).toEqual({ allowed: true });
    expect(await twin).toEqual({ allowed: true });
    const bState = settledFlag(b);
    await drained();
    expect(bState.settled).toBe(false);
    m.open[1]!.answer('deny');
    expect(await b).toMatchObject({ allowed: false, reason: expect.stringMatching(/declined/) });
    expect(m.open).toHaveLength(2);
  });

  test('after an always answer the waiting calls are decided again: one the grant covers runs and its question is withdrawn, another keeps asking', async () => {
    const m = manualApprover();
    const policy = new PolicyService({ settings, approver: m.approver });
    const a = policy.authorize(req(write, { path: '/out/a.txt' }), signal);
    const covered = policy.authorize(req(write, { path: '/out/sub/b.txt' }), signal);
    const other = policy.authorize(req(write, { path: '/other/c.txt' }), signal);
    await m.asked(3);
    m.open[0]!.answer('always_folder');
    expect(await a).toEqual({ allowed: true });
    expect(await covered).toEqual({ allowed: true });
    expect(m.open[1]!.signal.aborted).toBe(true);
    expect(m.open[1]!.signal.reason).toBeInstanceOf(QuestionWithdrawn);
    expect((m.open[1]!.signal.reason as QuestionWithdrawn).outcome).toBe('once');
    const otherState = settledFlag(other);
    await drained();
    expect(otherState.settled).toBe(false);
    expect(m.open[2]!.signal.aborted).toBe(false);
    m.open[2]!.answer('deny');
    expect((await other).allowed).toBe(false);
  });

  test('an always-for-this-tool answer does not wave through a waiting call to a protected path', async () => {
    const m = manualApprover();
    const policy = new PolicyService({ settings, approver: m.approver });
    const plain = policy.authorize(req(write, { path: '/out/a.txt' }), signal);
    const hook = policy.authorize(req(write, { path: '/ws/.git/hooks/pre-commit' }), signal);
    await m.asked(2);
    expect(m.open[1]!.q).toMatchObject({ protectedPath: true });
    m.open[0]!.answer('always_tool');
    expect(await plain).toEqual({ allowed: true });
    const hookState = settledFlag(hook);
    await drained();
    expect(hookState.settled).toBe(false);
    m.open[1]!.answer('deny');
    expect((await hook).allowed).toBe(false);
  });

  test('an allow rule stored while a question is open decides the waiting call; a deny rule refuses it', async () => {
    const m = manualApprover();
    const policy = new PolicyService({ settings, approver: m.approver });
    const a = policy.authorize(req(write, { path: '/out/a.txt' }), signal);
    const b = policy.authorize(req(write, { path: '/other/b.txt' }), signal);
    await m.asked(2);
    policy.addRule({ effect: 'allow', folder: '/out' });
    expect(await a).toEqual({ allowed: true });
    policy.addRule({ effect: 'deny', folder: '/other' });
    expect(await b).toMatchObject({ allowed: false, reason: expect.stringMatching(/stored rule denies/) });
    expect((m.open[1]!.signal.reason as QuestionWithdrawn).outcome).toBe('deny');
  });

  test('with no window connected the question waits; stopping the run withdraws it and denies the call', async () => {
    const broker = new ApprovalBroker();
    const policy = new PolicyService({ settings, approver: broker.ask });
    const run = new AbortController();
    const pending = policy.authorize(req(write, { path: '/out/a.txt' }), run.signal);
    await drained();
    expect(broker.pending()).toHaveLength(1);
    // A window that connects now sees the open question and hears it being withdrawn.
    const seen: ApprovalChange[] = [];
    broker.onDidChange((c) => seen.push(c));
    const question = broker.pending()[0]!;
    run.abort();
    expect(await pending).toMatchObject({ allowed: false, reason: expect.stringMatching(/stopped/) });
    expect(broker.pending()).toEqual([]);
    expect(seen).toEqual([{ kind: 'settled', questionId: question.id, answer: 'deny' }]);
    expect(() => broker.answer(question.id, 'once')).toThrow(/already answered/);
  });

  test('a question a grant decides is taken off the window as allowed', async () => {
    const broker = new ApprovalBroker();
    const seen: ApprovalChange[] = [];
    broker.onDidChange((c) => seen.push(c));
    const policy = new PolicyService({ settings, approver: broker.ask });
    const a = policy.authorize(req(write, { path: '/out/a.txt' }), signal);
    const b = policy.authorize(req(write, { path: '/out/b.txt' }), signal);
    await drained();
    const [qa, qb] = broker.pending();
    broker.answer(qa!.id, 'always_folder');
    expect(await a).toEqual({ allowed: true });
    expect(await b).toEqual({ allowed: true });
    expect(broker.pending()).toEqual([]);
    expect(seen.filter((c) => c.kind === 'settled')).toEqual([
      { kind: 'settled', questionId: qa!.id, answer: 'always_folder' },
      { kind: 'settled', questionId: qb!.id, answer: 'once' },
    ]);
  });
});

describe('declared paths', () => {
  test('a tool that changes things and declares no path parameters asks in write mode whatever its arguments, and runs in yolo', async () => {
    const undeclared: ToolSpec = { ...write, name: 'put', pathParams: undefined };
    const policy = new PolicyService({ settings });
    expect(policy.decide(req(undeclared, { path: 'src/a.ts' }))).toMatchObject({ kind: 'ask', reason: expect.stringMatching(/declares no path parameters/) });
    expect((await policy.authorize(req(undeclared, { path: 'src/a.ts' }), signal)).allowed).toBe(false);
    policy.setMode('s1', 'yolo');
    expect(policy.decide(req(undeclared, { path: 'src/a.ts' }))).toEqual({ kind: 'allow' });
  });

  test('only declared parameters are paths: an undeclared "path" argument outside the workspace is not judged, a declared array is', () => {
    const copy: ToolSpec = {
      name: 'copy',
      description: 'copy files',
      parameters: { type: 'object', properties: { sources: { type: 'array' }, into: { type: 'string' }, path: { type: 'string' } } },
      readOnly: false,
      pathParams: ['sources', 'into'],
    };
    const policy = new PolicyService({ settings });
    expect(policy.decide(req(copy, { sources: ['a', 'b/c'], into: 'out', path: '/etc/passwd' }))).toEqual({ kind: 'allow' });
    expect(policy.decide(req(copy, { sources: ['a', '/etc/shadow'], into: 'out' }))).toMatchObject({ kind: 'ask', folder: '/etc' });
    expect(policy.decide(req(copy, { sources: [{ not: 'a path' }], into: 'out' }))).toMatchObject({ kind: 'ask', reason: expect.stringMatching(/not a path/) });
  });

  test('a path starting with ~ is judged as the home folder, not as a folder named ~ in the workspace', () => {
    const policy = new PolicyService({ settings });
    expect(policy.decide(req(write, { path: '~/notes.txt' }))).toMatchObject({ kind: 'ask', folder: realpathSync(homedir()) });
    expect(policy.decide(req(write, { path: '~/.zshrc' }))).toMatchObject({ kind: 'ask', protectedPath: true });
    expect(policy.decide(req(write, { path: 'docs/~draft.txt' }))).toEqual({ kind: 'allow' });
  });

  test('a declared path left out counts as its schema default', () => {
    const ls: ToolSpec = {
      name: 'ls',
      description: 'list',
      parameters: { type: 'object', properties: { path: { type: 'string', default: '.' } } },
      readOnly: true,
      pathParams: ['path'],
    };
    const policy = new PolicyService({ settings, deniedRoots: ['/ws'] });
    expect(policy.decide(req(ls, {}))).toMatchObject({ kind: 'deny', reason: expect.stringMatching(/data folder/) });
  });
});

describe('protected paths and the data folder', () => {
  test('protected paths ask in write and yolo modes, with a folder grant, an allow rule and a tool grant alike', async () => {
    const m = manualApprover();
    const policy = new PolicyService({ settings, approver: m.approver });
    const paths = [
      '.git/hooks/pre-commit',
      'sub/.git/config',
      '.vscode/tasks.json',
      '.envrc',
      'package.json',
      'tools/.husky/pre-push',
      '.github/workflows/ci.yml',
      '/home/u/.bashrc',
      '/home/u/.config/fish/config.fish',
    ];
    for (const mode of ['write', 'yolo'] as const) {
      policy.setMode('s1', mode);
      for (const path of paths) expect(policy.decide(req(write, { path })), `${mode} ${path}`).toMatchObject({ kind: 'ask', protectedPath: true });
    }
    policy.setMode('s1', 'write');
    policy.addRule({ effect: 'allow', folder: '/ws' });
    policy.addRule({ effect: 'allow', tool: 'write' });
    const first = policy.authorize(req(write, { path: 'src/a.ts' }, 's1'), signal);
    expect(await first).toEqual({ allowed: true });
    const hook = policy.authorize(req(write, { path: '.git/hooks/post-checkout' }), signal);
    await m.asked(1);
    m.open[0]!.answer('always_folder');
    expect(await hook).toEqual({ allowed: true });
    expect(policy.rules().at(-1)).toMatchObject({ effect: 'allow', folder: '/ws/.git/hooks', workspace: '/ws', source: { via: 'approval' } });
    expect(policy.decide(req(write, { path: '.git/hooks/pre-commit' }))).toMatchObject({ kind: 'ask', protectedPath: true });
    expect(policy.decide(req(read, { path: '.git/config' }))).toEqual({ kind: 'allow' });
    expect(policy.decide(req(write, { path: 'src/b.ts' }))).toEqual({ kind: 'allow' });
  });

  test('a symlink inside the workspace cannot carry a write past the protection or out of the workspace', () => {
    const ws = join(dir, 'ws');
    const outside = join(dir, 'outside');
    mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
    mkdirSync(outside);
    symlinkSync(join(ws, '.git'), join(ws, 'innocent'));
    symlinkSync(outside, join(ws, 'out'));
    symlinkSync(join(ws, '.git', 'hooks', 'pre-commit'), join(ws, 'dangling'));
    const policy = new PolicyService({ settings });
    policy.setMode('s1', 'yolo');
    expect(policy.decide(req(write, { path: 'innocent/hooks/pre-commit' }, 's1', ws))).toMatchObject({ kind: 'ask', protectedPath: true });
    expect(policy.decide(req(write, { path: 'dangling' }, 's1', ws))).toMatchObject({ kind: 'ask', protectedPath: true });
    policy.setMode('s1', 'write');
    expect(policy.decide(req(write, { path: 'out/x.txt' }, 's1', ws))).toMatchObject({ kind: 'ask', folder: outside });
    expect(policy.decide(req(write, { path: 'src/x.txt' }, 's1', ws))).toEqual({ kind: 'allow' });
  });

  test("Amber's data folder is refused in every mode, to read-only tools too, also through a symlink", () => {
    const data = join(dir, 'data');
    const ws = join(dir, 'ws');
    mkdirSync(data);
    mkdirSync(ws);
    symlinkSync(data, join(ws, 'shortcut'));
    const policy = new PolicyService({ settings, deniedRoots: [data] });
    policy.addRule({ effect: 'allow', folder: data });
    for (const mode of ['read', 'write', 'yolo'] as const) {
      policy.setMode('s1', mode);
      expect(policy.decide(req(read, { path: join(data, 'secrets.json') }, 's1', ws)), mode).toMatchObject({
        kind: 'deny',
        reason: expect.stringMatching(/data folder/),
      });
      expect(policy.decide(req(read, { path: 'shortcut/amber.db' }, 's1', ws)), mode).toMatchObject({ kind: 'deny' });
      expect(policy.decide(req(write, { path: data }, 's1', ws)), mode).toMatchObject({ kind: 'deny' });
    }
    expect(policy.decide(req(read, { path: 'notes.txt' }, 's1', ws))).toEqual({ kind: 'allow' });
  });
});

describe('read-only claims of user plugins', () => {
  const peek: ToolSpec = { ...read, name: 'peek' };
  const user: ToolOrigin = { pluginId: 'peeker', bundled: false };

  test('a user plugin tool that says it only reads is a write tool until the user confirms it; revoking undoes that', () => {
    const policy = new PolicyService({ settings });
    policy.setMode('s1', 'read');
    expect(policy.decide(req(peek, { path: 'a' }, 's1', '/ws', user))).toMatchObject({
      kind: 'deny',
      reason: expect.stringMatching(/not confirmed in Settings/),
    });
    expect(policy.decide(req(peek, { path: 'a' }, 's1', '/ws', { pluginId: 'workspace_tools', bundled: true }))).toEqual({ kind: 'allow' });
    policy.setMode('s1', 'write');
    expect(policy.decide(req(peek, { path: '/etc/hosts' }, 's1', '/ws', user))).toMatchObject({ kind: 'ask' });
    policy.setReadOnlyConfirmed('peeker', true);
    expect(new PolicyService({ settings }).readOnlyConfirmed('peeker')).toBe(true);
    expect(policy.decide(req(peek, { path: '/etc/hosts' }, 's1', '/ws', user))).toEqual({ kind: 'allow' });
    expect(policy.decide(req(peek, { path: '/etc/hosts' }, 's1', '/ws', { pluginId: 'other', bundled: false })).kind).toBe('ask');
    policy.setReadOnlyConfirmed('peeker', false);
    expect(policy.decide(req(peek, { path: '/etc/hosts' }, 's1', '/ws', user)).kind).toBe('ask');
  });

  test('a confirmation cannot be stored under a key that is not a plugin id', () => {
    const policy = new PolicyService({ settings });
    expect(() => policy.setReadOnlyConfirmed('../rules', true)).toThrow(/no plugin id/);
    store.setSetting('policy.readOnlyConfirmed.peeker', '"yes"');
    expect(policy.readOnlyConfirmed('peeker')).toBe(false);
  });
});

/** A sandbox that can start, whatever this machine has: shell lines are judged as they are where one can. */
const sandboxed = () => ({ sandbox: new SandboxService({ settings, probe: async () => ({ available: true as const, kind: 'bubblewrap' as const }) }) });

/** A new PolicyService over the same SQLite file, as after a restart. */
function restarted(options: Partial<ConstructorParameters<typeof PolicyService>[0]> = {}): PolicyService {
  store.close();
  store = SessionStore.open(join(dir, 'amber.db'));
  settings = new SettingsService({ store });
  return new PolicyService({ settings, ...options });
}

describe('"always" answers are stored rules', () => {
  test('a rule stored by an "always" answer survives a restart, and removing it makes the call ask again', async () => {
    const first = new PolicyService({ settings, approver: async () => 'always_folder' });
    expect(await first.authorize(req(write, { path: '/out/a.txt' }), signal)).toEqual({ allowed: true });
    const after = restarted();
    expect(after.decide(req(write, { path: '/out/b.txt' }, 's9'))).toEqual({ kind: 'allow' });
    const [rule] = after.rules();
    expect(rule).toMatchObject({ effect: 'allow', folder: '/out', workspace: '/ws', source: { via: 'approval', sessionId: 's1' } });
    after.removeRule(rule!.id);
    expect(after.rules()).toEqual([]);
    expect(after.decide(req(write, { path: '/out/b.txt' }))).toMatchObject({ kind: 'ask' });
    expect(() => after.removeRule(rule!.id)).toThrow(/no longer stored/);
  });

  test('"everywhere" stores a global rule that holds in another workspace folder; a folder rule does not', async () => {
    const policy = new PolicyService({ settings, approver: async (q) => ({ answer: 'always_tool', scope: q.toolName === 'write' ? 'global' : 'folder' }) });
    const put: ToolSpec = { ...write, name: 'put' };
    await policy.authorize(req(write, { path: '/out/a.txt' }), signal);
    await policy.authorize(req(put, { path: '/out/a.txt' }), signal);
    expect(policy.rules().map((r) => [r.tool, r.workspace])).toEqual([
      ['write', undefined],
      ['put', '/ws'],
    ]);
    expect(policy.decide(req(write, { path: '/out/b.txt' }, 's2', '/other-ws')).kind).toBe('allow');
    expect(policy.decide(req(put, { path: '/out/b.txt' }, 's2', '/other-ws')).kind).toBe('ask');
    expect(policy.decide(req(put, { path: '/out/b.txt' }, 's2', '/ws')).kind).toBe('allow');
  });

  test('a shell "always" keeps its prefix with the class approved, across a restart; a worse class or an outside path asks again', async () => {
    await loadShellParser();
    const bash: ToolSpec = { name: 'bash', description: 'run a command line', parameters: {}, readOnly: false, shell: true };
    const line = (command: string, sessionId = 's1'): ToolRequest => ({ ...req(bash, { command }, sessionId), toolCallId: 'c' });
    const first = new PolicyService({ settings, approver: async () => 'always_tool', ...sandboxed() });
    expect((await first.authorize(line('docker run alpine'), signal)).allowed).toBe(true);
    const after = restarted(sandboxed());
    expect(after.rules()).toEqual([expect.objectContaining({ tool: 'bash', command: 'docker run', class: 'unknown', workspace: '/ws' })]);
    expect(after.decide(line('docker run --rm busybox', 's2')).kind).toBe('allow');
    expect(after.decide(line('docker run -v /etc:/etc alpine')).kind).toBe('ask');
    expect(after.decide(line('docker rm -f web')).kind).toBe('ask');
    // The same prefix approved again keeps one rule.
    await new PolicyService({ settings, approver: async () => 'always_tool', ...sandboxed() }).authorize(line('docker run hello'), signal);
    expect(after.rules()).toHaveLength(1);
  });

  test('rules stored before ids, sources and workspaces still read, hold everywhere, and get an id once', () => {
    store.setSetting(
      'policy.rules',
      JSON.stringify([
        { effect: 'deny', tool: 'bash' },
        { effect: 'allow', folder: '/srv/data' },
      ]),
    );
    const policy = new PolicyService({ settings, newId: () => 'unused' });
    const rules = policy.rules();
    expect(rules).toEqual([
      { id: expect.any(String), effect: 'deny', tool: 'bash' },
      { id: expect.any(String), effect: 'allow', folder: '/srv/data' },
    ]);
    expect(new Set(rules.map((r) => r.id)).size).toBe(2);
    // Written back once: the ids stay the same on the next read.
    expect(new PolicyService({ settings }).rules()).toEqual(rules);
    expect(policy.decide(req(write, { path: '/srv/data/x' }, 's1', '/anywhere')).kind).toBe('allow');
  });

  test('every change is announced by the policy itself: a mode with its session, rules and the timeout with null', async () => {
    const policy = new PolicyService({ settings, approver: async () => 'always_tool' });
    const seen: (string | null)[] = [];
    policy.onDidChange(({ sessionId }) => seen.push(sessionId));
    policy.setMode('s1', 'write');
    await policy.authorize(req(shell, { command: 'x' }), signal);
    const added = policy.addRule({ effect: 'deny', tool: 'rm' });
    expect(added.source).toEqual({ via: 'settings', at: expect.any(Number) });
    policy.addRule({ effect: 'deny', tool: 'rm' });
    policy.removeRule(added.id);
    policy.setApprovalTimeout(30);
    expect(seen).toEqual(['s1', null, null, null, null]);
  });

  test('hostile: bad rule shapes, unknown ids and huge strings are refused and nothing is stored', () => {
    const policy = new PolicyService({ settings });
    const bad: unknown[] = [
      { effect: 'allow' },
      { effect: 'maybe', tool: 'x' },
      { effect: 'deny', tool: 'bash', command: 'rm' },
      { effect: 'allow', command: 'npm test' },
      { effect: 'allow', tool: 'bash', class: 'write' },
      { effect: 'allow', tool: 'x'.repeat(129) },
      { effect: 'allow', folder: `/${'a'.repeat(5000)}` },
      { effect: 'allow', folder: '/a\0b' },
      { effect: 'allow', tool: 'bash', command: 'c'.repeat(501) },
      { effect: 'allow', tool: 'x', source: { via: 'magic', at: 1 } },
      { effect: 'allow', tool: 'x', id: 'i'.repeat(101) },
    ];
    for (const rule of bad) expect(() => policy.setRules([rule as PolicyRule]), JSON.stringify(rule).slice(0, 80)).toThrow(/Refused the tool rules/);
    expect(() =>
      policy.setRules([
        { effect: 'allow', tool: 'a', id: 'same' },
        { effect: 'allow', tool: 'b', id: 'same' },
      ]),
    ).toThrow(/two rules have the id/);
    expect(() => policy.setRules(Array.from({ length: 1001 }, (_, i) => ({ effect: 'allow' as const, tool: `t${i}` })))).toThrow(/at most 1000/);
    expect(() => policy.removeRule('no-such-rule')).toThrow(/no longer stored/);
    for (const seconds of [0, -1, 1.5, 86_401, Number.NaN]) expect(() => policy.setApprovalTimeout(seconds)).toThrow(/1 to 86,400 seconds/);
    expect(store.getSetting('policy.rules')).toBeNull();
    expect(policy.approvalTimeout()).toBeNull();
  });
});

describe('questions with a time limit, and runs with no one to ask', () => {
  test('a question unanswered past the timeout is withdrawn and its call denied, saying it timed out', async () => {
    const m = manualApprover();
    const fires: (() => void)[] = [];
    const policy = new PolicyService({ settings, approver: m.approver, timer: (ms, fire) => (fires.push(fire), expect(ms).toBe(30_000), () => {}) });
    policy.setApprovalTimeout(30);
    expect(policy.approvalTimeout()).toBe(30);
    const pending = policy.authorize(req(write, { path: '/out/a.txt' }), signal);
    await m.asked(1);
    expect(fires).toHaveLength(1);
    fires[0]!();
    expect(await pending).toEqual({ allowed: false, reason: 'No one answered within 30 s, so the question timed out and write was not run.' });
    expect(m.open[0]!.signal.aborted).toBe(true);
    expect((m.open[0]!.signal.reason as QuestionWithdrawn).outcome).toBe('deny');
  });

  test('with the timeout off (the default) a question waits; an answer in time cancels the timer', async () => {
    const m = manualApprover();
    const cancelled: number[] = [];
    const policy = new PolicyService({ settings, approver: m.approver, timer: () => () => cancelled.push(1) });
    const first = policy.authorize(req(write, { path: '/out/a.txt' }), signal);
    await m.asked(1);
    expect(cancelled).toEqual([]);
    m.open[0]!.answer('deny');
    await first;
    policy.setApprovalTimeout(5);
    const second = policy.authorize(req(write, { path: '/out/b.txt' }), signal);
    await m.asked(2);
    m.open[1]!.answer('once');
    expect(await second).toEqual({ allowed: true });
    expect(cancelled).toEqual([1]);
  });

  test('a real timer of one second denies through the broker, which takes the question off the window', async () => {
    const broker = new ApprovalBroker();
    const seen: ApprovalChange[] = [];
    broker.onDidChange((c) => seen.push(c));
    const policy = new PolicyService({ settings, approver: broker.ask });
    policy.setApprovalTimeout(1);
    const out = await policy.authorize(req(write, { path: '/out/a.txt' }), signal);
    expect(out).toMatchObject({ allowed: false, reason: expect.stringMatching(/timed out/) });
    expect(broker.pending()).toEqual([]);
    expect(seen.map((c) => c.kind)).toEqual(['requested', 'settled']);
  });

  test('with no approver, a run with allowances runs what they cover and denies the rest at once, saying no one is there', async () => {
    await loadShellParser();
    const bash: ToolSpec = { name: 'bash', description: 'run a command line', parameters: {}, readOnly: false, shell: true };
    const unattended = new UnattendedApprovals(['write', 'bash:docker run']);
    const policy = new PolicyService({ settings, unattended, ...sandboxed() });
    expect((await policy.authorize(req(write, { path: '/out/a.txt' }), signal)).allowed).toBe(true);
    expect((await policy.authorize(req(bash, { command: 'docker run alpine' }), signal)).allowed).toBe(true);
    const other = await policy.authorize(req(bash, { command: 'docker rm -f web' }), signal);
    expect(other).toMatchObject({ allowed: false, reason: expect.stringMatching(/No one is there to approve it, so it was not run\.$/) });
    // A protected path is never covered, whatever the allowances say.
    expect((await policy.authorize(req(write, { path: '.git/hooks/pre-commit' }), signal)).allowed).toBe(false);
    expect(unattended.decided()).toEqual([
      { toolName: 'write', allowed: true },
      { toolName: 'bash', line: 'docker run alpine', allowed: true },
      { toolName: 'bash', line: 'docker rm -f web', allowed: false },
      { toolName: 'write', allowed: false },
    ]);
  });
});
