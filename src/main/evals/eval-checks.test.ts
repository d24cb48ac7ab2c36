import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { runChecks } from './eval-checks.ts';

let dir: string;
let ws: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'amber-eval-checks-')));
  ws = join(dir, 'ws');
  mkdirSync(ws);
  writeFileSync(join(ws, 'a.txt'), 'alpha beta\n');
  writeFileSync(join(dir, 'secret.txt'), 'the secret\n');
  symlinkSync(join(dir, 'secret.txt'), join(ws, 'link.txt'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const trace = (over: Partial<Parameters<typeof runChecks>[1]> = {}) => ({
  prompt: 'What is the answer?',
  reply: 'The answer is 42.',
  workspace: ws,
  calls: [
    { name: 'read', args: { path: 'a.txt' }, status: 'ok' },
    { name: 'edit', args: { path: 'a.txt', oldText: 'alpha' }, status: 'ok' },
    { name: 'bash', args: { command: 'rm -rf /' }, status: 'denied' },
  ],
  steps: 4,
  denied: 1,
  ...over,
});
const never = async () => ({ ok: false, output: 'not run' });

test('each kind of check passes and fails on what the run did', async () => {
  const results = await runChecks(
    [
      { type: 'replyContains', text: '42' },
      { type: 'replyMatches', pattern: '^No' },
      { type: 'fileExists', path: 'a.txt' },
      { type: 'fileMatches', path: 'a.txt', pattern: 'gamma' },
      { type: 'toolUsed', tool: 'edit' },
      { type: 'toolNotUsed', tool: 'bash' },
      { type: 'toolOrder', tools: ['read', 'bash'] },
      { type: 'toolOrder', tools: ['read', 'edit'], exact: true },
      { type: 'toolArgs', tool: 'edit', args: { path: 'a.txt' } },
      { type: 'maxSteps', steps: 3 },
      { type: 'noApproval' },
      { type: 'command', command: 'true', weight: 3 },
    ],
    trace(),
    async (command) => ({ ok: command === 'true', output: '' }),
  );
  expect(results.map((r) => [r.type, r.passed])).toEqual([
    ['replyContains', true],
    ['replyMatches', false],
    ['fileExists', true],
    ['fileMatches', false],
    ['toolUsed', true],
    ['toolNotUsed', false],
    ['toolOrder', true],
    ['toolOrder', false],
    ['toolArgs', true],
    ['maxSteps', false],
    ['noApproval', false],
    ['command', true],
  ]);
  expect(results.at(-1)!.weight).toBe(3);
});

test('a file check never reads through a link out of the workspace, and a missing file or a failing command fails with the reason', async () => {
  const results = await runChecks(
    [
      { type: 'fileMatches', path: 'link.txt', pattern: 'secret' },
      { type: 'fileExists', path: 'link.txt' },
      { type: 'fileExists', path: 'nope.txt' },
      { type: 'command', command: 'x' },
    ],
    trace(),
    async () => {
      throw new Error('the shell tool is gone');
    },
  );
  expect(results.map((r) => r.passed)).toEqual([false, false, false, false]);
  expect(results[0]!.detail).toBe('link.txt leads outside the workspace');
  expect(results[0]!.detail).not.toContain('secret');
  expect(results[2]!.detail).toBe('nope.txt does not exist');
  expect(results[3]!.detail).toContain('the shell tool is gone');
  expect(await runChecks([{ type: 'noApproval' }], trace({ denied: 0 }), never)).toMatchObject([{ passed: true }]);
});

test('a rubric check takes the judge’s grade and reasoning; a judge that is missing, fails or throws fails the check with the reason', async () => {
  const rubric = { type: 'rubric' as const, rubric: 'Gives the answer as a number.' };
  const asked: string[] = [];
  const graded = await runChecks([rubric], trace(), never, async (input) => {
    asked.push(`${input.prompt}|${input.reply}|${input.rubric}`);
    return { passed: true, score: 0.9, reasoning: 'It says 42.' };
  });
  expect(asked).toEqual(['What is the answer?|The answer is 42.|Gives the answer as a number.']);
  expect(graded).toEqual([{ type: 'rubric', passed: true, weight: 1, detail: 'judged 0.90: It says 42.' }]);
  expect((await runChecks([rubric], trace(), never))[0]).toMatchObject({ passed: false, detail: expect.stringMatching(/no judge model is named/) });
  const garbage = await runChecks([rubric], trace(), never, async () => ({ error: "the judge's answer did not follow its schema twice" }));
  expect(garbage[0]).toMatchObject({ passed: false, detail: "the judge gave no grade: the judge's answer did not follow its schema twice" });
  const thrown = await runChecks([rubric], trace(), never, async () => {
    throw new Error('connection refused');
  });
  expect(thrown[0]).toMatchObject({ passed: false, detail: 'the judge gave no grade: connection refused' });
});
