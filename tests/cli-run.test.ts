// `amber run` as users run it: a separate Node process on the TypeScript sources, its bundled plugins in
// their own processes (the OpenAI-compatible provider talking to a loopback server, the workspace tools
// with their bash tool), against a temp data folder. No window is connected and none can be: a question is
// denied at once and counted; `--allow` lets a tool or a shell prefix run.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openApp } from './fixtures/app-under-test.ts';
import { openAiStream, type ProviderServer, type RecordedRequest, startProviderServer } from './fixtures/provider-server.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'src/main/cli/cli.ts');

let dir: string;
let dataDir: string;
let workspace: string;
let server: ProviderServer;

/** The model: a user message asks for the two command lines; after their results it is done. */
function script(request: RecordedRequest) {
  const messages = (request.body as { messages: { role: string }[] }).messages;
  if (messages.at(-1)?.role !== 'user') return openAiStream({ text: 'All done.' });
  return openAiStream({
    text: '',
    toolCalls: [
      { id: `call_a_${messages.length}`, name: 'bash', arguments: { command: 'frobnicate --fast' } },
      { id: `call_b_${messages.length}`, name: 'bash', arguments: { command: 'rm -rf build' } },
    ],
  });
}

beforeEach(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'amber-cli-run-')));
  dataDir = join(dir, 'data');
  workspace = join(dir, 'project');
  mkdirSync(join(workspace, 'build'), { recursive: true });
  server = await startProviderServer({ script });
  // Set up as the first-run form would: an OpenAI-compatible account on the loopback server, its model the default.
  const setup = openApp({ prefix: 'amber-cli-run-setup-', app: () => ({ dataDir, home: dir }) });
  setup.app.providers.save({ presetId: 'custom', baseUrl: `${server.url}/v1`, model: 'loop-model', apiKey: 'test-key' });
  await setup.close();
});

afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI without blocking this process (the loopback model answers from here). */
function amber(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir };
  delete env['npm_lifecycle_event'];
  delete env['AMBER_WORKSPACE'];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

interface RunJson {
  sessionId: string;
  reason: string;
  reply: string;
  toolCalls: { name: string; status: string }[];
  approvals: { allowed: number; denied: number; deniedCalls: { toolName: string; line?: string }[] };
}

describe('amber run', () => {
  test('with no window and no --allow, every call that would ask is denied at once, saying no one is there, and counted', async () => {
    const run = await amber(['run', '--new', '--workspace', workspace, '--data-dir', dataDir, 'Clean up the build.']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^All done\.\n\nTool calls: 2 \(0 ran, 0 failed, 2 denied\)\.\nDenied, no one was there to approve them: 2\.\n {2}bash: frobnicate --fast\n {2}bash: rm -rf build\nConversation: \S+\n$/,
    );
    expect(existsSync(join(workspace, 'build'))).toBe(true);
    // The model read why: no one was there to approve them.
    const toolMessages = (server.requests[1]!.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === 'tool');
    expect(toolMessages).toHaveLength(2);
    for (const m of toolMessages) expect(JSON.stringify(m.content)).toContain('No one is there to approve it, so it was not run.');
  });

  test('--allow lets a shell prefix run without asking; a destructive line is still denied; --json says how many of each', async () => {
    const first = await amber([
      'run',
      '--new',
      '--workspace',
      workspace,
      '--data-dir',
      dataDir,
      '--json',
      '--allow',
      'bash:frobnicate',
      '--allow',
      'read',
      'Clean up the build.',
    ]);
    expect(first.stderr).toBe('');
    const out = JSON.parse(first.stdout) as RunJson;
    expect(out).toMatchObject({
      reason: 'stop',
      reply: 'All done.',
      approvals: { allowed: 1, denied: 1, deniedCalls: [{ toolName: 'bash', line: 'rm -rf build' }] },
    });
    expect(out.toolCalls.map((t) => t.status === 'denied')).toEqual([false, true]);
    expect(existsSync(join(workspace, 'build'))).toBe(true);

    // The same conversation again, by id: its workspace is kept; nothing was stored as a rule.
    const again = await amber(['run', '--session', out.sessionId, '--data-dir', dataDir, '--json', 'Once more.']);
    expect((JSON.parse(again.stdout) as RunJson).approvals).toMatchObject({ allowed: 0, denied: 2 });
  });

  test('hostile: bad allowances, options a command does not take and conversations that cannot run are one sentence each, exit 1', async () => {
    const cases: [string[], RegExp][] = [
      [['run', '--new', '--allow', 'bash:', 'go'], /names no command prefix/],
      [['run', '--new', '--allow', 'no such tool', 'go'], /is not an allowance/],
      [['run', '--new', '--allow', `bash:${'x'.repeat(500)}`, 'go'], /names no command prefix/],
      [['run', '--new', '--session', 'abc', 'go'], /--session ID, or start one with --new \(not both\)/],
      [['run', 'go'], /--session ID, or start one with --new/],
      [['run', '--session', 'no-such-session', 'go'], /^The conversation no-such-session does not exist/],
      [['run', '--new', '--allow'], /needs a value, as in --allow 'bash:npm test'/],
      [['sessions', 'list', '--allow', 'read'], /amber sessions list does not take --allow/],
      [['run', '--new', '--workspace', '/', 'go'], /is the whole disk; choose a project folder instead/],
    ];
    for (const [args, message] of cases) {
      const r = await amber([...args, '--data-dir', dataDir]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect(server.requests).toHaveLength(0);
  });
});
