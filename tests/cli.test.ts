import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { COMMANDS, runCli } from '../src/main/cli/run-cli.ts';

// The CLI as users run it: a separate Node process on the TypeScript sources, against a temp data folder.
const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'src/main/cli/cli.ts');
const FIXTURE = join(ROOT, 'tests/fixtures/pi/branched-v3.jsonl');

let dir: string;
let dataDir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-cli-'));
  dataDir = join(dir, 'data');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function amber(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const env = { ...process.env, ...options.env };
  // Not started by `npm run amber` here: relative paths start at the child's cwd.
  delete env.npm_lifecycle_event;
  const r = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    env,
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('amber CLI', () => {
  test('import a pi file, list it as JSON, export it: the export holds the same entries, leaf last', () => {
    const imported = amber(['import-pi', FIXTURE, '--json', '--data-dir', dataDir]);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    const { session, entries, version } = JSON.parse(imported.stdout) as { session: { id: string }; entries: number; version: number };
    expect({ entries, version }).toEqual({ entries: 30, version: 3 });

    const listed = amber(['sessions', 'list', '--json', '--data-dir', dataDir]);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({
      sessions: [
        expect.objectContaining({
          id: session.id,
          title: 'Retry with backoff for the weather CLI',
          leafId: '3f4a5b6c',
          // 17 message entries, 3 of them tool results: the user's and the model's messages are counted, as the tree counts them.
          messageCount: 14,
          cwd: '/home/dev/projects/weather-cli',
        }),
      ],
    });

    const out = join(dir, 'out.jsonl');
    const exported = amber(['export-pi', session.id, out, '--json', '--data-dir', dataDir]);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toEqual({ sessionId: session.id, file: out, entries: 30, leafId: '3f4a5b6c' });
    const [header, ...written] = jsonLines(readFileSync(out, 'utf8'));
    const [originalHeader, ...original] = jsonLines(readFileSync(FIXTURE, 'utf8'));
    expect(header).toMatchObject({ type: 'session', version: 3, id: originalHeader!.id, cwd: originalHeader!.cwd });
    expect(written).toEqual(original);
  });

  test('human output by default; the data folder defaults to AMBER_DATA_DIR; relative paths start at the cwd', () => {
    const env = { AMBER_DATA_DIR: dataDir };
    expect(amber(['sessions', 'list'], { env }).stdout).toBe(`No conversations yet in ${dataDir}.\n`);
    const imported = amber(['import-pi', 'branched-v3.jsonl'], { env, cwd: join(ROOT, 'tests/fixtures/pi') });
    expect(imported.stdout).toBe(
      `Imported ${FIXTURE} (pi format version 3, 30 entries) as conversation 7f3c2a91-5b1e-4d0a-9c8e-2f6b4a1d3e57 "Retry with backoff for the weather CLI".\n`,
    );
    const listed = amber(['sessions', 'list'], { env }).stdout.split('\n');
    expect(listed[0]).toMatch(/^ID +UPDATED +MESSAGES +TITLE$/);
    expect(listed[1]).toMatch(/^7f3c2a91-5b1e-4d0a-9c8e-2f6b4a1d3e57 +\d{4}-\d\d-\d\d \d\d:\d\dZ +14 +Retry with backoff for the weather CLI$/);
  });

  test('a malformed file fails with every bad line on stderr, exit 1, and nothing imported', () => {
    const bad = join(dir, 'bad.jsonl');
    const lines = readFileSync(FIXTURE, 'utf8').trimEnd().split('\n');
    lines[4] = '{"type":"message"';
    lines[22] = lines[22]!.replace('"type":"label"', '"type":"labelled"');
    writeFileSync(bad, lines.join('\n'));
    const r = amber(['import-pi', bad, '--json', '--data-dir', dataDir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^Nothing was imported from ${bad.replaceAll('.', '\\.')}\\. Not a valid pi session: 2 lines are malformed\\.`));
    expect(r.stderr).toContain('\n  line 5: not valid JSON');
    expect(r.stderr).toContain("\n  line 23: unknown entry type 'labelled'");
    expect(JSON.parse(amber(['sessions', 'list', '--json', '--data-dir', dataDir]).stdout)).toEqual({ sessions: [] });
  });

  test('usage mistakes and missing things are one sentence on stderr with exit code 1', () => {
    const cases: [string[], string][] = [
      [[], 'Name a command, such as `amber sessions list`; see --help for all of them.\n'],
      [
        ['sessions', 'lust'],
        "Unknown command 'sessions lust'; the commands are sessions list, sessions check, import-pi, export-pi, run, eval compare, eval (see --help).\n",
      ],
      [['sessions', 'list', '--jsn'], 'Unknown option --jsn; see --help for the options.\n'],
      [['import-pi'], 'amber import-pi takes FILE, but was given none.\n'],
      [['export-pi', 'nope', join(dir, 'x.jsonl'), '--data-dir', dataDir], 'The conversation nope does not exist (it may have been deleted).\n'],
      [['import-pi', join(dir, 'missing.jsonl'), '--data-dir', dataDir], `Cannot read ${join(dir, 'missing.jsonl')}: there is no such file.\n`],
    ];
    for (const [args, message] of cases) {
      const r = amber(args);
      expect({ args, code: r.code, stderr: r.stderr, stdout: r.stdout }).toEqual({ args, code: 1, stderr: message, stdout: '' });
    }
    const help = amber(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('amber export-pi SESSION_ID FILE [--force]');
  });

  test('the conversation commands open the session store alone, never the whole core; each command is listed under its own words', async () => {
    const err: string[] = [];
    const out: string[] = [];
    const io = {
      stdout: { write: (t: string) => out.push(t) },
      stderr: { write: (t: string) => err.push(t) },
      openApp: () => {
        throw new Error('the whole core was opened');
      },
    };
    const exported = join(dir, 'out.jsonl');
    expect(await runCli(['import-pi', FIXTURE, '--data-dir', dataDir], io)).toBe(0);
    expect(await runCli(['sessions', 'list', '--data-dir', dataDir], io)).toBe(0);
    expect(await runCli(['sessions', 'check', '7f3c2a91-5b1e-4d0a-9c8e-2f6b4a1d3e57', '--data-dir', dataDir], io)).toBe(0);
    expect(await runCli(['export-pi', '7f3c2a91-5b1e-4d0a-9c8e-2f6b4a1d3e57', exported, '--data-dir', dataDir], io)).toBe(0);
    expect(err).toEqual([]);
    // A command that needs the core does open it.
    expect(await runCli(['run', '--new', 'hello', '--data-dir', dataDir], io)).toBe(1);
    expect(err).toEqual([`Cannot open the data folder ${dataDir}: the whole core was opened.\n`]);
    for (const entry of COMMANDS) expect((await entry.load()).words).toEqual(entry.words);
  });

  test('sessions check exits 0 for an intact session and 2 naming each entry another program changed', () => {
    const id = '7f3c2a91-5b1e-4d0a-9c8e-2f6b4a1d3e57';
    amber(['import-pi', FIXTURE, '--data-dir', dataDir]);
    const intact = amber(['sessions', 'check', id, '--data-dir', dataDir]);
    expect(intact).toEqual({ code: 0, stderr: '', stdout: `Conversation ${id} is intact: all 30 entries match their hashes.\n` });
    expect(JSON.parse(amber(['sessions', 'check', id, '--json', '--full', '--data-dir', dataDir]).stdout)).toEqual({
      sessionId: id,
      entries: 30,
      ok: true,
      changed: [],
    });
    expect(JSON.parse(amber(['sessions', 'check', id, '--json', '--data-dir', dataDir]).stdout)).toEqual({
      sessionId: id,
      entries: 0,
      ok: true,
      changed: [],
      sinceLast: true,
    });

    // Another program edits two entries in place.
    const db = new Database(join(dataDir, 'amber.db'));
    const ids = db.prepare(`SELECT id FROM entries WHERE session_id = ? AND type = 'message' ORDER BY seq LIMIT 2 OFFSET 3`).pluck().all(id) as string[];
    const edit = db.prepare(`UPDATE entries SET payload = replace(payload, '"timestamp":"', '"timestamp":"0') WHERE session_id = ? AND id = ?`);
    for (const entryId of ids) expect(edit.run(id, entryId).changes).toBe(1);
    db.close();

    // A check trusts what the last intact check covered (--since-last says so too): the edits are older, so only --full finds them.
    for (const since of [[], ['--since-last']]) {
      const sinceLast = amber(['sessions', 'check', id, ...since, '--data-dir', dataDir]);
      expect(sinceLast).toEqual({
        code: 0,
        stderr: '',
        stdout: `Conversation ${id} is intact: no entry was added since the last check (--full checks them all again).\n`,
      });
    }
    const changed = amber(['sessions', 'check', id, '--full', '--data-dir', dataDir]);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toBe('');
    expect(changed.stdout).toBe(
      `Conversation ${id} was changed outside Amber: 2 of its 30 entries no longer match their hashes, so Amber opens it read-only.\n` +
        ids.map((entryId) => `changed: ${entryId}\n`).join(''),
    );
    const json = amber(['sessions', 'check', id, '--json', '--full', '--data-dir', dataDir]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({ sessionId: id, entries: 30, ok: false, changed: ids });

    const both = amber(['sessions', 'check', id, '--full', '--since-last', '--data-dir', dataDir]);
    expect(both).toEqual({ code: 1, stdout: '', stderr: 'Pass --full or --since-last, not both: --full checks every entry.\n' });
    const missing = amber(['sessions', 'check', 'nope', '--data-dir', dataDir]);
    expect(missing).toEqual({ code: 1, stdout: '', stderr: 'The conversation nope does not exist (it may have been deleted).\n' });
  });

  test('export never overwrites a file unless told to with --force', () => {
    amber(['import-pi', FIXTURE, '--data-dir', dataDir]);
    const out = join(dir, 'taken.jsonl');
    writeFileSync(out, 'precious\n');
    const id = '7f3c2a91-5b1e-4d0a-9c8e-2f6b4a1d3e57';
    const refused = amber(['export-pi', id, out, '--data-dir', dataDir]);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: `${out} already exists; choose another name, or pass --force to overwrite it.\n` });
    expect(readFileSync(out, 'utf8')).toBe('precious\n');
    const forced = amber(['export-pi', id, out, '--force', '--data-dir', dataDir]);
    expect(forced.stdout).toBe(`Exported conversation ${id} (30 entries) to ${out}.\n`);
    expect(jsonLines(readFileSync(out, 'utf8')).at(-1)!.id).toBe('3f4a5b6c');
  });
});
