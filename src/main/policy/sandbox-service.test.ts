import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { ApprovalAnswer, ApprovalQuestion, PolicyMode } from '../../shared/agent/index.ts';
import type { ToolSpec } from '../../shared/tools/index.ts';
import { SessionStore } from '../sessions/index.ts';
import { SettingsService } from '../settings/index.ts';
import { ApprovalBroker } from './approval-broker.ts';
import { PolicyService } from './policy-service.ts';
import type { ToolRequest } from './tool-gate.ts';
import type { SandboxStatus } from './sandbox-probe.ts';
import { sandboxProfile } from './sandbox-profile.ts';
import { SandboxService } from './sandbox-service.ts';
import { loadShellParser, shellClassify } from './shell-classify.ts';
import { ShellPolicy } from './shell-policy.ts';

let dir: string;
let store: SessionStore;
let settings: SettingsService;
beforeAll(() => loadShellParser());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-sandbox-'));
  store = SessionStore.open(join(dir, 'amber.db'));
  settings = new SettingsService({ store });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const AVAILABLE: SandboxStatus = { available: true, kind: 'bubblewrap' };
const MISSING: SandboxStatus = { available: false, reason: 'bubblewrap (bwrap) is not installed.', fix: 'Install bubblewrap.' };

const bash: ToolSpec = { name: 'bash', description: 'run a command line', parameters: {}, readOnly: false, shell: true };
const write: ToolSpec = { name: 'write', description: 'write a file', parameters: {}, readOnly: false, pathParams: ['path'] };
const req = (command: string, sessionId = 's1'): ToolRequest => ({
  sessionId,
  workspaceRoot: '/ws',
  tool: bash,
  toolCallId: `c-${Math.random()}`,
  args: { command },
});
const signal = new AbortController().signal;

function policyWith(status: SandboxStatus, answer: ApprovalAnswer = 'deny', shell?: ShellPolicy) {
  const asked: ApprovalQuestion[] = [];
  let probes = 0;
  const sandbox = new SandboxService({ settings, probe: async () => (probes++, status), platform: 'linux' });
  const policy = new PolicyService({ settings, sandbox, approver: async (q) => (asked.push(q), answer), ...(shell ? { shell } : {}) });
  return { policy, sandbox, asked, probes: () => probes };
}

describe('the sandbox profile of a shell call', () => {
  test('follows the mode: read has no network, write has the setting, yolo always has it', () => {
    const cases: [PolicyMode, boolean, boolean][] = [
      ['read', false, false],
      ['read', true, false],
      ['write', false, false],
      ['write', true, true],
      ['yolo', false, true],
      ['yolo', true, true],
    ];
    for (const [mode, network, expected] of cases) {
      expect(sandboxProfile({ mode, network, available: true }), `${mode} ${network}`).toEqual({ mode, network: expected });
    }
  });

  test('is unsandboxed when the user said so for the call or when no sandbox can start; protected paths approved stay writable', () => {
    expect(sandboxProfile({ mode: 'write', network: false, available: true, unsandboxed: true })).toEqual({ mode: 'write', network: false, unsandboxed: true });
    expect(sandboxProfile({ mode: 'read', network: true, available: false })).toEqual({ mode: 'read', network: false, unsandboxed: true });
    expect(sandboxProfile({ mode: 'write', network: false, available: true, writable: ['/ws/.git/hooks', '/ws/.git/hooks'] })).toEqual({
      mode: 'write',
      network: false,
      writable: ['/ws/.git/hooks'],
    });
    // Read mode never writes, whatever was approved.
    expect(sandboxProfile({ mode: 'read', network: false, available: true, writable: ['/ws/.envrc'] })).toEqual({ mode: 'read', network: false });
    expect(sandboxProfile({ mode: 'write', network: false, available: false, sandboxOnly: true })).toEqual({ mode: 'write', network: false });
  });

  test('the global switch sets write mode’s network; a conversation’s own choice wins, and default gives it back to the switch', () => {
    const sandbox = new SandboxService({ settings, probe: async () => AVAILABLE });
    const changes: (string | null)[] = [];
    sandbox.onDidChange(({ sessionId }) => changes.push(sessionId));
    expect(sandbox.profile('s1', 'write')).toEqual({ mode: 'write', network: false });
    sandbox.setNetwork(true);
    expect(sandbox.profile('s1', 'write')).toEqual({ mode: 'write', network: true });
    sandbox.setSessionNetwork('s1', false);
    expect(sandbox.profile('s1', 'write')).toEqual({ mode: 'write', network: false });
    expect(sandbox.profile('s2', 'write')).toEqual({ mode: 'write', network: true });
    expect(sandbox.profile('s1', 'yolo')).toEqual({ mode: 'yolo', network: true });
    sandbox.setNetwork(false);
    sandbox.setSessionNetwork('s2', true);
    expect(sandbox.profile('s2', 'write')).toEqual({ mode: 'write', network: true });
    expect(sandbox.profile('s2', 'read')).toEqual({ mode: 'read', network: false });
    sandbox.setSessionNetwork('s2', null);
    expect(sandbox.sessionNetwork('s2')).toBeNull();
    expect(sandbox.profile('s2', 'write')).toEqual({ mode: 'write', network: false });
    expect(changes).toEqual([null, 's1', null, 's2', 's2']);
    // Kept in the database: a restart keeps both.
    sandbox.setNetwork(true);
    expect(new SandboxService({ settings }).profile('s1', 'write')).toEqual({ mode: 'write', network: false });
    expect(new SandboxService({ settings }).profile('s3', 'write')).toEqual({ mode: 'write', network: true });
  });

  test('probes once, never rejects, and a later failure to start one turns it off for good, announced once', async () => {
    let probes = 0;
    const sandbox = new SandboxService({ settings, probe: async () => (probes++, AVAILABLE), platform: 'linux' });
    await Promise.all([sandbox.status(), sandbox.status()]);
    expect(await sandbox.status()).toEqual(AVAILABLE);
    expect(probes).toBe(1);
    const changes: (string | null)[] = [];
    sandbox.onDidChange(({ sessionId }) => changes.push(sessionId));
    sandbox.markUnavailable('bwrap: setting up uid map: Permission denied');
    sandbox.markUnavailable('again');
    expect(await sandbox.status()).toEqual({
      available: false,
      reason: 'The sandbox could not start when a command ran: bwrap: setting up uid map: Permission denied',
      fix: expect.stringMatching(/bubblewrap/),
    });
    expect(changes).toEqual([null]);
    expect(sandbox.profile('s1', 'write')).toEqual({ mode: 'write', network: false, unsandboxed: true });

    const failing = new SandboxService({ settings, probe: () => Promise.reject(new Error('boom')), platform: 'win32' });
    expect(await failing.status()).toMatchObject({ available: false, reason: expect.stringMatching(/boom/), fix: expect.stringMatching(/WSL/) });
  });
});

describe('the policy with a sandbox', () => {
  test('every allowed shell call carries its sandbox; other tools’ calls carry none', async () => {
    const { policy, sandbox } = policyWith(AVAILABLE);
    expect(await policy.authorize(req('ls'), signal)).toEqual({ allowed: true, sandbox: { mode: 'write', network: false } });
    expect(await policy.authorize(req('mkdir -p build'), signal)).toEqual({ allowed: true, sandbox: { mode: 'write', network: false } });
    sandbox.setSessionNetwork('s1', true);
    expect(await policy.authorize(req('npm install'), signal)).toEqual({ allowed: true, sandbox: { mode: 'write', network: true } });
    policy.setMode('s1', 'read');
    expect(await policy.authorize(req('ls'), signal)).toEqual({ allowed: true, sandbox: { mode: 'read', network: false } });
    policy.setMode('s1', 'yolo');
    sandbox.setSessionNetwork('s1', false);
    expect(await policy.authorize(req('touch a'), signal)).toEqual({ allowed: true, sandbox: { mode: 'yolo', network: true } });
    expect(await policy.authorize({ ...req(''), tool: write, args: { path: 'a.txt' } }, signal)).toEqual({ allowed: true });
  });

  test('a shell question offers the sandbox; "run unsandboxed" runs that call alone outside it, and the same call asks again', async () => {
    const { policy, asked } = policyWith(AVAILABLE, 'unsandboxed');
    expect(await policy.authorize(req('rm -rf build'), signal)).toEqual({ allowed: true, sandbox: { mode: 'write', network: false, unsandboxed: true } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ sandboxed: true, command: { line: 'rm -rf build' } });
    expect(await policy.authorize(req('rm -rf build'), signal)).toMatchObject({ allowed: true, sandbox: { unsandboxed: true } });
    expect(asked).toHaveLength(2);
    // Never remembered: a line the sandbox would run freely is not unsandboxed by an earlier answer.
    expect(await policy.authorize(req('mkdir -p build'), signal)).toEqual({ allowed: true, sandbox: { mode: 'write', network: false } });
  });

  test('"run unsandboxed" for anything but a sandboxed shell question is a denial, and the window cannot send it', async () => {
    const { policy } = policyWith(AVAILABLE, 'unsandboxed');
    const outside = { ...req(''), tool: write, args: { path: '/elsewhere/a.txt' } };
    expect(await policy.authorize(outside, signal)).toEqual({
      allowed: false,
      reason: expect.stringMatching(/write was not run: running outside the sandbox can only be chosen for a shell command/),
    });

    const broker = new ApprovalBroker();
    const viaWindow = new PolicyService({ settings, approver: broker.ask, sandbox: new SandboxService({ settings, probe: async () => AVAILABLE }) });
    const pending = viaWindow.authorize(outside, signal);
    await new Promise<void>((res) => broker.onDidChange((c) => c.kind === 'requested' && res()));
    const [question] = broker.pending();
    expect(question).not.toHaveProperty('sandboxed');
    expect(() => broker.answer(question!.id, 'unsandboxed')).toThrow(/Only a shell command that would run in the sandbox/);
    // Still open: the user answers it another way.
    broker.answer(question!.id, 'deny');
    expect(await pending).toMatchObject({ allowed: false });
  });

  test('without a sandbox, write and yolo ask for every line that is not read-only, offer no "always", and run what is allowed unsandboxed', async () => {
    const { policy, asked, probes } = policyWith(MISSING, 'once');
    expect(await policy.authorize(req('ls -la'), signal)).toEqual({ allowed: true, sandbox: { mode: 'write', network: false, unsandboxed: true } });
    expect(asked).toEqual([]);
    expect(await policy.authorize(req('mkdir -p build'), signal)).toEqual({ allowed: true, sandbox: { mode: 'write', network: false, unsandboxed: true } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      sandboxed: false,
      reason: expect.stringMatching(/No sandbox can start here, so if you allow it, it runs with your full rights\./),
      command: { line: 'mkdir -p build', class: 'write' },
    });
    expect(asked[0]!.command).not.toHaveProperty('prefixes');
    policy.setMode('s1', 'yolo');
    await policy.authorize(req('touch a'), signal);
    expect(asked.map((q) => q.command?.line)).toEqual(['mkdir -p build', 'touch a']);
    // Read mode is unchanged: read-only lines run (with no sandbox to run in), the rest is denied without asking.
    policy.setMode('s1', 'read');
    expect(await policy.authorize(req('cat README.md'), signal)).toEqual({ allowed: true, sandbox: { mode: 'read', network: false, unsandboxed: true } });
    expect(await policy.authorize(req('touch a'), signal)).toMatchObject({ allowed: false, reason: expect.stringMatching(/read mode/) });
    expect(asked).toHaveLength(2);
    expect(probes()).toBe(1);
  });

  test('an "always" answer without a sandbox covers only the call asked about', async () => {
    const { policy, asked } = policyWith(MISSING, 'always_tool');
    await policy.authorize(req('npm test'), signal);
    await policy.authorize(req('npm test'), signal);
    expect(asked).toHaveLength(2);
  });

  test('a line approved as one that runs in the sandbox is not run outside it when the sandbox fails meanwhile', async () => {
    let answer!: (a: ApprovalAnswer) => void;
    const sandbox = new SandboxService({ settings, probe: async () => AVAILABLE });
    const policy = new PolicyService({ settings, sandbox, approver: () => new Promise((res) => (answer = res)) });
    const pending = policy.authorize(req('rm -rf build'), signal);
    await expect.poll(() => answer).toBeDefined();
    policy.sandboxUnavailable('bwrap: Creating new namespace failed');
    answer('once');
    expect(await pending).toEqual({ allowed: true, sandbox: { mode: 'write', network: false } });
  });

  test('a sandbox that fails to start once the probe said yes: the next lines that are not read-only ask', async () => {
    const { policy, asked } = policyWith(AVAILABLE, 'deny');
    expect(await policy.authorize(req('mkdir -p build'), signal)).toMatchObject({ allowed: true });
    policy.sandboxUnavailable('bwrap: Creating new namespace failed');
    expect(await policy.authorize(req('mkdir -p build'), signal)).toMatchObject({ allowed: false });
    expect(asked[0]).toMatchObject({ sandboxed: false });
  });

  test('allowing a line asked about for its protected paths makes those paths writable for that call only', async () => {
    const protectedLine = new ShellPolicy({
      classify: (line, options) => {
        const verdict = shellClassify(line, options);
        return line.includes('.git/hooks')
          ? { ...verdict, class: 'destructive', reason: 'It changes a git hook.', protectedPaths: ['/ws/.git/hooks/pre-commit'] }
          : verdict;
      },
    });
    const { policy } = policyWith(AVAILABLE, 'once', protectedLine);
    const line = 'echo make > .git/hooks/pre-commit';
    expect(await policy.authorize(req(line), signal)).toEqual({
      allowed: true,
      sandbox: { mode: 'write', network: false, writable: ['/ws/.git/hooks/pre-commit'] },
    });
    expect(await policy.authorize(req('touch a'), signal)).toEqual({ allowed: true, sandbox: { mode: 'write', network: false } });
  });
});
