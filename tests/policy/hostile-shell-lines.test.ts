// The hostile shell corpus against the judge and the shell policy: every line gets the verdict the corpus
// says, and the policy decides it as the flags say in read, write and yolo modes. The workspace, home and
// data folder are real temp folders laid out as the corpus's header describes, so links made by a line's
// setup are followed as they would be on a user's disk.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { PolicyMode } from '../../src/shared/agent/index.ts';
import { loadShellParser, ShellPolicy, shellClassify, type ShellVerdict } from '../../src/main/policy/index.ts';
import { HOSTILE_SHELL_LINES, type HostileLine } from '../fixtures/hostile-shell-lines.ts';

const PORT = '45671';
let dir: string;
let home: string;
let workspace: string;
let data: string;

beforeAll(async () => {
  await loadShellParser();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'amber-hostile-judge-')));
  home = join(dir, 'home');
  workspace = join(home, 'project');
  data = join(home, '.local', 'share', 'amber');
  for (const d of [join(workspace, 'src'), join(workspace, '.vscode'), data, join(home, '.ssh'), join(home, '.aws'), join(home, 'other-project')])
    mkdirSync(d, { recursive: true });
  const files: Record<string, string> = {
    'project/README.md': '# project\n',
    'project/src/index.js': 'console.log("hi")\n',
    'project/package.json': '{"name":"p"}\n',
    'project/Makefile': 'all:\n',
    'project/vitest.config.ts': 'export default {}\n',
    'project/.vscode/tasks.json': '{}\n',
    '.local/share/amber/secrets.json': '{}\n',
    '.ssh/id_rsa': 'key\n',
    '.aws/credentials': 'key\n',
    '.netrc': 'key\n',
    '.bash_history': 'key\n',
    '.bashrc': '\n',
    'other-project/marker.txt': 'untouched\n',
  };
  for (const [path, text] of Object.entries(files)) writeFileSync(join(home, path), text);
  execFileSync('git', ['init', '-q'], { cwd: workspace });
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const fill = (line: string) => line.replaceAll('{{PORT}}', PORT);
const classify = (line: string) => shellClassify(line, { workspaceRoot: workspace, home, deniedRoots: [data] });

/** What the policy must decide for an entry, by its flags (see the corpus's header). */
function expected(entry: HostileLine, mode: PolicyMode): 'allow' | 'ask' | 'deny' {
  if (entry.denied) return 'deny';
  if (mode === 'read') return entry.expect === 'read_only' && !entry.outside ? 'allow' : 'deny';
  return entry.protected || entry.outside || entry.expect === 'unknown' || entry.expect === 'destructive' ? 'ask' : 'allow';
}

/** The flags a verdict has, in the corpus's terms. */
function flags(v: ShellVerdict) {
  return {
    class: v.class,
    outside: v.outside.length > 0,
    protected: v.protectedPaths.length > 0,
    denied: v.denied.length > 0,
    noAlways: v.noAlways !== undefined,
  };
}

describe('the hostile shell corpus', () => {
  test('has at least 150 lines, 40 of them runnable end to end, each with a reason and none twice', () => {
    expect(HOSTILE_SHELL_LINES.length).toBeGreaterThanOrEqual(150);
    expect(HOSTILE_SHELL_LINES.filter((l) => l.e2e).length).toBeGreaterThanOrEqual(40);
    expect(HOSTILE_SHELL_LINES.filter((l) => l.why.trim() === '')).toEqual([]);
    expect(new Set(HOSTILE_SHELL_LINES.map((l) => l.line)).size).toBe(HOSTILE_SHELL_LINES.length);
  });

  test('every line gets the verdict it must get from the judge', () => {
    const wrong: string[] = [];
    for (const entry of HOSTILE_SHELL_LINES) {
      if (entry.setup) execFileSync('bash', ['-c', fill(entry.setup)], { cwd: workspace, env: { ...process.env, HOME: home }, stdio: 'ignore' });
      const got = flags(classify(fill(entry.line)));
      const want = {
        class: entry.expect,
        outside: entry.outside ?? false,
        protected: entry.protected ?? false,
        denied: entry.denied ?? false,
        noAlways: entry.noAlways ?? false,
      };
      if (JSON.stringify(got) !== JSON.stringify(want))
        wrong.push(`${entry.line}\n    got  ${JSON.stringify(got)}\n    want ${JSON.stringify(want)}\n    (${classify(fill(entry.line)).reason})`);
    }
    expect(wrong.join('\n')).toBe('');
  });

  test('the shell policy allows, asks or denies every line as its flags say, in read, write and yolo modes', () => {
    const policy = new ShellPolicy({ classify: (line, options) => shellClassify(line, { ...options, home }) });
    const wrong: string[] = [];
    for (const entry of HOSTILE_SHELL_LINES) {
      for (const mode of ['read', 'write', 'yolo'] as const) {
        const decision = policy.decide({ sessionId: 's', workspaceRoot: workspace, args: { command: fill(entry.line) } }, mode, true, new Map(), {
          deniedRoots: [data],
        });
        if (decision.kind !== expected(entry, mode)) wrong.push(`${mode}: ${entry.line} → ${decision.kind}, want ${expected(entry, mode)}`);
        if (decision.kind === 'ask' && entry.protected && decision.shell.protectedPaths.length === 0)
          wrong.push(`${mode}: ${entry.line} asks without naming its protected paths`);
        if (
          decision.kind === 'ask' &&
          (entry.noAlways || entry.protected) &&
          (decision.shell.command.prefixes !== undefined || policy.grantable(decision.shell) !== null)
        )
          wrong.push(`${mode}: ${entry.line} offers "always"`);
      }
    }
    expect(wrong.join('\n')).toBe('');
  });
});
