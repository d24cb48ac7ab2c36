import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ApprovalAnswer, ApprovalQuestion } from '../../shared/agent/index.ts';
import type { ToolSpec } from '../../shared/tools/index.ts';
import { SessionStore } from '../sessions/index.ts';
import { PolicyService, type ToolRequest } from './policy-service.ts';

let dir: string;
let store: SessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-policy-'));
  store = SessionStore.open(join(dir, 'amber.db'));
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const read: ToolSpec = { name: 'read', description: 'read a file', parameters: {}, readOnly: true };
const write: ToolSpec = { name: 'write', description: 'write a file', parameters: {}, readOnly: false };
const shell: ToolSpec = { name: 'shell', description: 'run a command', parameters: {}, readOnly: false };

function req(tool: ToolSpec, args: Record<string, unknown>, sessionId = 's1'): ToolRequest {
  return { sessionId, workspaceRoot: '/ws', tool, toolCallId: `c-${Math.random()}`, args };
}

const signal = new AbortController().signal;

describe('policy modes', () => {
  test('read mode runs read-only tools and refuses the rest', async () => {
    const policy = new PolicyService({ store });
    policy.setMode('s1', 'read');
    expect(await policy.authorize(req(read, { path: '/etc/hosts' }), signal)).toEqual({ allowed: true });
    const refused = await policy.authorize(req(write, { path: 'a.txt' }), signal);
    expect(refused).toMatchObject({ allowed: false, reason: expect.stringMatching(/read mode/) });
  });

  test('write mode runs writes inside the workspace and asks about the rest; no approver means denied', async () => {
    const policy = new PolicyService({ store });
    expect(policy.mode('s1')).toBe('write');
    expect(await policy.authorize(req(write, { path: 'src/a.ts' }), signal)).toEqual({ allowed: true });
    expect(policy.decide(req(write, { path: '/ws2/a.ts' }))).toMatchObject({ kind: 'ask', folder: '/ws2' });
    expect(policy.decide(req(shell, { command: 'ls' }))).toMatchObject({ kind: 'ask', folder: null });
    const denied = await policy.authorize(req(write, { path: '../outside.txt' }), signal);
    expect(denied).toMatchObject({ allowed: false, reason: expect.stringMatching(/No one is there to approve/) });
  });

  test('yolo mode runs everything, but stored deny rules still apply', async () => {
    const policy = new PolicyService({ store });
    policy.setMode('s1', 'yolo');
    expect(await policy.authorize(req(shell, { command: 'rm -rf /' }), signal)).toEqual({ allowed: true });
    policy.addRule({ effect: 'deny', tool: 'shell' });
    expect(await policy.authorize(req(shell, { command: 'ls' }), signal)).toMatchObject({ allowed: false, reason: expect.stringMatching(/stored rule/) });
  });

  test('modes and rules persist in the settings table across instances', () => {
    const a = new PolicyService({ store });
    a.setMode('s1', 'read');
    a.addRule({ effect: 'allow', folder: '/tmp/out' });
    const b = new PolicyService({ store });
    expect(b.mode('s1')).toBe('read');
    expect(b.mode('s2')).toBe('write');
    expect(b.rules()).toEqual([{ effect: 'allow', folder: '/tmp/out' }]);
    expect(() => b.setRules([{ effect: 'allow' }])).toThrow(/names a tool, a folder or both/);
  });

  test('corrupt stored rules deny instead of allowing', async () => {
    const policy = new PolicyService({ store });
    policy.setMode('s1', 'yolo');
    store.setSetting('policy.rules', '{"not": "rules"}');
    expect(await policy.authorize(req(shell, {}), signal)).toMatchObject({ allowed: false, reason: expect.stringMatching(/cannot be read/) });
  });

  test('an allow rule for a folder lets writes there run without asking; a deny rule for a folder wins', async () => {
    const policy = new PolicyService({ store });
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
    const policy = new PolicyService({ store, approver });
    expect(await policy.authorize(req(write, { path: '/elsewhere/a' }), signal)).toEqual({ allowed: true });
    expect(await policy.authorize(req(write, { path: '/elsewhere/a' }), signal)).toMatchObject({ allowed: false, reason: expect.stringMatching(/declined/) });
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({ sessionId: 's1', toolName: 'write', folder: '/elsewhere' });
  });

  test('always for this tool grants the tool for the session only', async () => {
    const { asked, approver } = approverAnswering(['always_tool']);
    const policy = new PolicyService({ store, approver });
    expect(await policy.authorize(req(shell, { command: 'make' }), signal)).toEqual({ allowed: true });
    expect(await policy.authorize(req(shell, { command: 'make test' }), signal)).toEqual({ allowed: true });
    expect(asked).toHaveLength(1);
    expect(policy.grants('s1')).toEqual([{ tool: 'shell' }]);
    expect(policy.decide(req(shell, {}, 's2')).kind).toBe('ask');
  });

  test('always for this folder grants writes inside that folder, not beside it', async () => {
    const { asked, approver } = approverAnswering(['always_folder']);
    const policy = new PolicyService({ store, approver });
    expect(await policy.authorize(req(write, { path: '/out/a.txt' }), signal)).toEqual({ allowed: true });
    expect(policy.decide(req(write, { path: '/out/sub/b.txt' })).kind).toBe('allow');
    expect(policy.decide(req(write, { path: '/out2/b.txt' })).kind).toBe('ask');
    expect(asked).toHaveLength(1);
  });

  test('concurrent calls of one scope share one question', async () => {
    const questions: { q: ApprovalQuestion; answer: (a: ApprovalAnswer) => void }[] = [];
    let onAsked: (() => void) | undefined;
    const policy = new PolicyService({
      store,
      approver: (q) =>
        new Promise((answer) => {
          questions.push({ q, answer });
          onAsked?.();
        }),
    });
    const bothAsked = new Promise<void>((res) => (onAsked = () => questions.length === 2 && res()));
    const a = policy.authorize(req(write, { path: '/out/a.txt' }), signal);
    const b = policy.authorize(req(write, { path: '/out/b.txt' }), signal);
    const c = policy.authorize(req(write, { path: '/other/c.txt' }), signal);
    await bothAsked;
    expect(questions.map((x) => x.q.folder)).toEqual(['/out', '/other']);
    questions[0]!.answer('once');
    questions[1]!.answer('deny');
    expect(await a).toEqual({ allowed: true });
    expect(await b).toEqual({ allowed: true });
    expect((await c).allowed).toBe(false);
    expect(questions).toHaveLength(2);
  });

  test('an approver that throws or answers nonsense counts as a denial', async () => {
    const throwing = new PolicyService({ store, approver: async () => { throw new Error('window closed'); } });
    expect((await throwing.authorize(req(shell, {}), signal)).allowed).toBe(false);
    const nonsense = new PolicyService({ store, approver: async () => 'sure' as ApprovalAnswer });
    expect((await nonsense.authorize(req(shell, {}), signal)).allowed).toBe(false);
  });

  test('an abort while waiting for an answer denies', async () => {
    const policy = new PolicyService({ store, approver: () => new Promise(() => {}) });
    const controller = new AbortController();
    const pending = policy.authorize(req(shell, {}), controller.signal);
    controller.abort();
    expect((await pending).allowed).toBe(false);
  });

  test('a detached approver no longer answers', async () => {
    const policy = new PolicyService({ store });
    const attached = policy.setApprover(async () => 'once');
    expect((await policy.authorize(req(shell, {}), signal)).allowed).toBe(true);
    attached.dispose();
    expect((await policy.authorize(req(shell, {}), signal)).allowed).toBe(false);
  });
});
