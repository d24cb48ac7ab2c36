// `amber eval` as users run it: a separate Node process on the sources, the bundled plugins in their own
// processes (the OpenAI-compatible provider talking to a loopback server, the workspace tools and their
// sandboxed shell), the repository's sample suite, two models the loopback server answers differently.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { EvalRunRecord } from '../src/shared/evals/index.ts';
import { openApp } from './fixtures/app-under-test.ts';
import { jsonError, openAiStream, type RecordedRequest, type Reply, startProviderServer, type ProviderServer } from './fixtures/provider-server.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'src/main/cli/cli.ts');
const SUITE = join(ROOT, 'evals/sample');

let dir: string;
let dataDir: string;
let server: ProviderServer;

type Body = { model: string; messages: { role: string; content: unknown }[] };
const text = (content: unknown) => (typeof content === 'string' ? content : JSON.stringify(content));
let versionAsked = 0;

/**
 * `good` does each task the way its checks want; `bad` skips the edit, answers the version from memory every
 * other time, runs a destructive command to list files (denied: no one is there), and writes the wrong notes.
 * Both run the slow build, which outlasts its limit.
 */
function script(request: RecordedRequest): Reply {
  const body = request.body as Body;
  const task = text(body.messages.find((m) => m.role === 'user')?.content);
  const toolResults = body.messages.filter((m) => m.role === 'tool').length;
  const good = body.model === 'good';
  if (body.model === 'broken') return jsonError(400, 'The model is down.');
  const call = (name: string, args: Record<string, unknown>) => openAiStream({ toolCalls: [{ id: `c${toolResults}`, name, arguments: args }] });
  if (body.model === 'judge') {
    const graded = /It prints hello/.test(text(body.messages.at(-1)?.content));
    return openAiStream({
      text: JSON.stringify({ passed: graded, score: graded ? 0.9 : 0.1, reasoning: graded ? 'Says it prints hello.' : 'Says nothing about the greeting.' }),
    });
  }
  if (task.includes('Explain in one sentence')) return openAiStream({ text: good ? 'It prints hello.' : 'No idea.' });
  if (task.includes('Change greet.sh')) {
    if (!good) return openAiStream({ text: 'I changed it.' });
    return toolResults === 0 ? call('edit', { path: 'greet.sh', oldText: 'echo "hello"', newText: 'echo "hello, world"' }) : openAiStream({ text: 'Done.' });
  }
  if (task.includes('Which version')) {
    if (toolResults > 0) return openAiStream({ text: '1.2.3' });
    if (!good && versionAsked++ % 2 === 1) return openAiStream({ text: '1.0.0' });
    return call('read', { path: 'package.json' });
  }
  if (task.includes('List the files')) {
    if (toolResults > 0) return openAiStream({ text: 'greet.sh, package.json, README.md' });
    return good ? call('ls', {}) : call('bash', { command: 'rm -rf . && ls' });
  }
  if (task.includes('NOTES.md')) {
    if (toolResults > 0) return openAiStream({ text: 'Written.' });
    return call('write', { path: 'NOTES.md', content: good ? 'The project greets the world.\n' : 'Nothing to say.\n' });
  }
  if (task.includes('build')) return toolResults === 0 ? call('bash', { command: 'sleep 30' }) : openAiStream({ text: 'built' });
  return openAiStream({ text: 'I do not know this task.' });
}

beforeEach(async () => {
  versionAsked = 0;
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'amber-cli-eval-')));
  dataDir = join(dir, 'data');
  server = await startProviderServer({ script });
  const setup = openApp({ prefix: 'amber-cli-eval-setup-', app: () => ({ dataDir, home: dir }) });
  setup.app.providers.save({ presetId: 'custom', baseUrl: `${server.url}/v1`, model: 'good', apiKey: 'test-key' });
  await setup.close();
});

afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function amber(
  args: string[],
  options: { interruptWhen?: (stderr: string) => boolean } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir };
  delete env['npm_lifecycle_event'];
  delete env['AMBER_WORKSPACE'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', CLI, ...args, '--data-dir', dataDir], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
      if (!interrupted && options.interruptWhen?.(stderr)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const runsOf = (out: string) =>
  readFileSync(join(out, 'runs.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as EvalRunRecord);

test('the sample suite with two models, twice each: the report scores every run as its checks say, with pass^k, intervals and a flaky task', {
  timeout: 200_000,
}, async () => {
  const out = join(dir, 'eval-out');
  const run = await amber([
    'eval',
    SUITE,
    '--model',
    'custom/good',
    '--model',
    'custom/bad',
    '--judge',
    'custom/judge',
    '--repeat',
    '2',
    '--out',
    out,
    '--json',
  ]);
  expect(run.stderr).toMatch(/\[#{20}\] 24\/24/);
  expect(run.code).toBe(1);
  const report = JSON.parse(run.stdout) as {
    models: { model: string; runs: number; passes: number; interval: { low: number; high: number }; tasksAlwaysPassing: number; flakyTasks: number }[];
    tasks: { taskId: string; model: string; passes: number; passAtK: boolean; passHatK: boolean; flaky: boolean }[];
  };
  const good = report.models.find((m) => m.model === 'custom/good')!;
  const bad = report.models.find((m) => m.model === 'custom/bad')!;
  expect(good).toMatchObject({ runs: 12, passes: 10, tasksAlwaysPassing: 5, flakyTasks: 0 });
  expect(good.interval.low).toBeCloseTo(0.552, 3);
  expect(good.interval.high).toBeCloseTo(0.953, 3);
  expect(bad).toMatchObject({ runs: 12, passes: 1, tasksAlwaysPassing: 0, flakyTasks: 1 });
  expect(bad.interval.low).toBeCloseTo(0.0149, 4);
  expect(bad.interval.high).toBeCloseTo(0.3539, 4);
  expect(report.tasks.find((t) => t.model === 'custom/bad' && t.taskId === 'read-version')).toMatchObject({
    passes: 1,
    passAtK: true,
    passHatK: false,
    flaky: true,
  });

  const runs = runsOf(out);
  expect(runs).toHaveLength(24);
  const of = (model: string, task: string) => runs.filter((r) => r.model === `custom/${model}` && r.taskId === task);
  // The edit was checked by running the edited script in the sandbox.
  expect(of('good', 'edit-greeting').every((r) => r.passed && r.checks[0]!.type === 'command' && r.checks[0]!.passed)).toBe(true);
  expect(of('bad', 'edit-greeting')[0]!.checks.map((c) => c.passed)).toEqual([false, false]);
  // The destructive command needed a person: denied and counted, and the workspace is whole.
  const listed = of('bad', 'list-without-asking')[0]!;
  expect(listed).toMatchObject({ passed: false, denied: 1 });
  expect(existsSync(join(out, 'workspaces', 'list-without-asking-custom_bad-1', 'greet.sh'))).toBe(true);
  // The judge graded the explanations, its reasoning kept with the score.
  expect(of('good', 'explain-greeting')[0]!.checks[0]).toMatchObject({ type: 'rubric', passed: true, detail: 'judged 0.90: Says it prints hello.' });
  expect(of('bad', 'explain-greeting')[0]!.checks[0]).toMatchObject({ type: 'rubric', passed: false });
  // The slow build ran out of time, scored as a timeout and never as a crash.
  expect(of('good', 'slow-build').map((r) => r.end)).toEqual(['timeout', 'timeout']);
  expect(of('good', 'slow-build')[0]!.ms).toBeLessThan(15_000);
  // Each run is a conversation tagged with the eval, its workspace a fresh copy of the fixture.
  const opened = openApp({ prefix: 'amber-cli-eval-open-', app: () => ({ dataDir, home: dir }) });
  try {
    const path = opened.app.sessions.path(of('good', 'write-notes')[0]!.sessionId);
    expect(path[0]).toMatchObject({ type: 'custom', customType: 'eval', data: { taskId: 'write-notes', model: 'custom/good', attempt: 1 } });
    // The window lists the eval (its folder was outside the data folder, so it was remembered) and pages its runs.
    const { evals } = await opened.call<{ evals: { evalId: string; suite: string; runs: number; passes: number }[] }>('evals.list');
    expect(evals).toMatchObject([{ suite: 'sample', runs: 24, passes: 11 }]);
    const page = await opened.call<{ total: number; runs: unknown[]; models: unknown[] }>('evals.get', { evalId: evals[0]!.evalId, offset: 15, limit: 10 });
    expect(page).toMatchObject({ total: 24, models: [{}, {}] });
    expect(page.runs).toHaveLength(9);
    expect((await opened.refused('evals.get', { evalId: 'no-such-eval' })).code).toBe('not_found');
    expect((await opened.refused('evals.get', { evalId: 'x', limit: 5000 })).code).toBe('invalid_input');
  } finally {
    await opened.close();
  }
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  expect(html).toContain('<svg role="img" aria-label="Pass rate per model with its 95% interval"');
  expect(html).toContain('<th scope="row">custom/good</th><td>83% (10/12)</td><td>55%–95%</td>');
  expect(html).not.toMatch(/<script|src="http|href="http/);
  const md = readFileSync(join(out, 'report.md'), 'utf8');
  expect(md).toContain('| custom/good | 83% (10/12) | 55%–95% | 5/6 | 0 |');
  expect(md).toContain('| read-version | custom/bad | 1/2 | yes | no | 9%–91% | flaky |');
});

test('Ctrl+C keeps the runs that finished, and --resume completes the eval without running them again', { timeout: 200_000 }, async () => {
  const out = join(dir, 'eval-out');
  const first = await amber(['eval', SUITE, '--model', 'custom/good', '--out', out], { interruptWhen: (stderr) => / 2\/6 /.test(stderr) });
  expect(first.stderr).toMatch(/Stopping: the runs under way are ended/);
  expect(first.code).toBe(1);
  const kept = runsOf(out);
  expect(kept.length).toBeGreaterThanOrEqual(2);
  expect(kept.length).toBeLessThan(6);
  const requestsBefore = server.requests.length;

  const second = await amber(['eval', SUITE, '--model', 'custom/good', '--out', out, '--resume', '--json']);
  const all = runsOf(out);
  expect(all.map((r) => r.taskId).sort()).toEqual(['edit-greeting', 'explain-greeting', 'list-without-asking', 'read-version', 'slow-build', 'write-notes']);
  expect(new Set(all.map((r) => r.evalId)).size).toBe(1);
  // Without a judge the rubric check cannot pass: it fails, saying so.
  expect(JSON.parse(second.stdout)).toMatchObject({ models: [{ model: 'custom/good', runs: 6, passes: 4 }] });
  expect(all.find((r) => r.taskId === 'explain-greeting')!.checks[0]!.detail).toMatch(/no judge model is named/);
  // The finished runs were not asked again: only the tasks left reached the model.
  const asked = server.requests.slice(requestsBefore).map((r) => text((r.body as Body).messages.find((m) => m.role === 'user')?.content));
  const promptOf: Record<string, string> = {
    'edit-greeting': 'Change greet.sh',
    'read-version': 'Which version',
    'list-without-asking': 'List the files',
    'write-notes': 'NOTES.md',
    'explain-greeting': 'Explain in one sentence',
    'slow-build': 'Run the build',
  };
  for (const done of kept) expect(asked.filter((a) => a.includes(promptOf[done.taskId]!))).toEqual([]);
  expect(asked.length).toBeGreaterThan(0);
});

test('a suite that is not valid is refused with the file and the field named, and nothing runs', async () => {
  const bad = join(dir, 'bad-suite.json');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(bad, JSON.stringify({ name: 'x', tasks: [{ id: 'a b', prompt: 'p', checks: [{ type: 'replyContains', text: 'x' }] }] }));
  const run = await amber(['eval', bad, '--model', 'custom/good']);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`The suite ${bad} is not valid: tasks.0.id must be 1 to 64 letters, digits, dots, dashes or underscores.`);
  writeFileSync(bad, JSON.stringify({ name: 'x', tasks: [{ id: 'a', prompt: 'p', fixture: '../..', checks: [{ type: 'replyContains', text: 'x' }] }] }));
  expect((await amber(['eval', bad, '--model', 'custom/good'])).stderr).toMatch(/tasks\.0\.fixture must be a relative path inside the folder/);
  expect((await amber(['eval', SUITE, '--model', 'nomodel'])).stderr).toMatch(/'nomodel' is not a model: name it as provider\/model/);
  expect((await amber(['eval', SUITE, '--model', 'custom/good', '--repeat', '0'])).stderr).toMatch(/--repeat takes a whole number from 1 to 100/);
  expect(server.requests).toHaveLength(0);
});

/** A run's record as runs.jsonl holds it, for the compare test. */
const recordOf = (taskId: string, attempt: number, passed: boolean) => ({
  evalId: 'e',
  taskId,
  model: 'custom/good',
  attempt,
  sessionId: `s-${taskId}-${attempt}`,
  end: 'done',
  passed,
  score: passed ? 1 : 0,
  checks: [],
  steps: 2,
  toolCalls: 1,
  denied: 0,
  tokensIn: 100,
  tokensOut: 10,
  cost: 0.001,
  ms: 500,
  firstTokenMs: 50,
});

test('eval compare flags a seeded regression and exits 1; two equal evals exit 0', async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const write = (name: string, results: [string, boolean[]][]) => {
    const folder = join(dir, name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'runs.jsonl'),
      `${results.flatMap(([task, passes]) => passes.map((p, i) => JSON.stringify(recordOf(task, i + 1, p)))).join('\n')}\n`,
    );
    return folder;
  };
  const before = write('a', [
    ['edit-greeting', [true, true, true]],
    ['read-version', [true, true, true]],
  ]);
  const after = write('b', [
    ['edit-greeting', [true, false, true]],
    ['read-version', [true, true, true]],
  ]);
  const regressed = await amber(['eval', 'compare', before, after]);
  expect(regressed.code).toBe(1);
  expect(regressed.stdout).toContain('newly failing: edit-greeting · custom/good: 3/3 → 2/3');
  expect(regressed.stdout).toContain('Regression: 1 task that always passed now fails sometimes.');
  const same = await amber(['eval', 'compare', before, before, '--json']);
  expect(same.code).toBe(0);
  expect(JSON.parse(same.stdout)).toMatchObject({ regression: false });
  expect((await amber(['eval', 'compare', before, join(dir, 'nothing-here')])).stderr).toMatch(/holds no eval \(no runs\.jsonl\)/);
});

test('a model that errors is scored as an error with its message, never a crash, and the reports are still written', { timeout: 60_000 }, async () => {
  const { writeFileSync } = await import('node:fs');
  const suite = join(dir, 'one-task.json');
  writeFileSync(suite, JSON.stringify({ name: 'one', tasks: [{ id: 'hello', prompt: 'Say hello.', checks: [{ type: 'replyContains', text: 'hello' }] }] }));
  const out = join(dir, 'broken-out');
  const run = await amber(['eval', suite, '--model', 'custom/broken', '--out', out]);
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/custom\/broken\s+0% \(0\/1\)/);
  const [record] = runsOf(out);
  expect(record).toMatchObject({ end: 'error', passed: false, error: expect.stringContaining('The model is down') });
  expect(existsSync(join(out, 'report.html'))).toBe(true);
});
