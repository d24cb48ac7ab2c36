import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { App, AppOptions } from '../app.ts';
import { DATABASE_FILE, defaultDataDir, tightenDataDir } from '../data-dir.ts';
import { AmberError, errorMessage } from '../errors.ts';
import { SessionStore } from '../sessions/index.ts';
import type { CliCommand, CliFlags, CliOutput } from './cli-command.ts';

/**
 * Every command by the words that name it, loaded only when it runs (all of them for --help): a command on
 * conversations never loads the agent, the plugins, the policy or the evals, and so starts in about half the time.
 * Listed in the order they are matched in (`eval compare` before `eval`).
 */
export const COMMANDS: readonly { words: readonly string[]; load(): Promise<CliCommand> }[] = [
  { words: ['sessions', 'list'], load: async () => (await import('./sessions-list-command.ts')).sessionsListCommand },
  { words: ['sessions', 'check'], load: async () => (await import('./sessions-check-command.ts')).sessionsCheckCommand },
  { words: ['import-pi'], load: async () => (await import('./import-pi-command.ts')).importPiCommand },
  { words: ['export-pi'], load: async () => (await import('./export-pi-command.ts')).exportPiCommand },
  { words: ['run'], load: async () => (await import('./run-command.ts')).runCommand },
  { words: ['eval', 'compare'], load: async () => (await import('./eval-compare-command.ts')).evalCompareCommand },
  { words: ['eval'], load: async () => (await import('./eval-command.ts')).evalCommand },
];

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env?: NodeJS.ProcessEnv;
  /** Where relative paths start; default: the folder `npm run amber` was started from, else the process's. */
  cwd?: string;
  openApp?: (dataDir: string, options: Omit<AppOptions, 'dataDir'>) => App;
}

async function usage(): Promise<string> {
  const commands = await Promise.all(COMMANDS.map((c) => c.load()));
  const lines = commands.map((c) => {
    const call = [...c.words, ...c.args, ...(c.options ?? []).map((o) => `[--${o}]`)].join(' ');
    return call.length > 36 ? `  amber ${call}\n  ${' '.repeat(43)}${c.summary}` : `  amber ${call.padEnd(36)} ${c.summary}`;
  });
  return [
    'Usage: amber <command> [--json] [--data-dir DIR]',
    '',
    'Commands:',
    ...lines,
    '',
    'Options:',
    '  --json            print the result as JSON',
    '  --data-dir DIR    the data folder to use (default: $AMBER_DATA_DIR, else the platform default)',
    '  -h, --help        show this help',
  ].join('\n');
}

async function findCommand(positionals: string[]): Promise<{ command: CliCommand; args: string[] }> {
  for (const entry of COMMANDS) {
    if (entry.words.every((w, i) => positionals[i] === w)) return { command: await entry.load(), args: positionals.slice(entry.words.length) };
  }
  const said = positionals.slice(0, 2).join(' ');
  const known = COMMANDS.map((c) => c.words.join(' ')).join(', ');
  throw new AmberError('invalid_input', `Unknown command '${said}'; the commands are ${known} (see --help).`);
}

const VALUE_EXAMPLE: Record<string, string> = {
  '--session': 'ID',
  '--allow': "'bash:npm test'",
  '--model': 'openai/gpt-5',
  '--repeat': '3',
  '--concurrency': '2',
};

/** A whole number from `min` to `max` given to an option, or a sentence saying what it should be. */
function count(option: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new AmberError('invalid_input', `--${option} takes a whole number from ${min} to ${max}, not '${value}'.`);
  return n;
}

function parse(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        'data-dir': { type: 'string' },
        force: { type: 'boolean', default: false },
        session: { type: 'string' },
        new: { type: 'boolean', default: false },
        workspace: { type: 'string' },
        allow: { type: 'string', multiple: true, default: [] },
        'since-last': { type: 'boolean', default: false },
        full: { type: 'boolean', default: false },
        model: { type: 'string', multiple: true, default: [] },
        repeat: { type: 'string' },
        concurrency: { type: 'string' },
        out: { type: 'string' },
        judge: { type: 'string' },
        resume: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    const option = /'(-[^' ]+)/.exec(errorMessage(e))?.[1];
    const code = (e as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) throw new AmberError('invalid_input', `Unknown option ${option}; see --help for the options.`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option)
      throw new AmberError('invalid_input', `The option ${option} needs a value, as in ${option} ${VALUE_EXAMPLE[option] ?? 'DIR'}.`);
    throw new AmberError('invalid_input', `${errorMessage(e).replace(/\.?$/, '.')} See --help.`);
  }
}

/**
 * Runs one `amber` command line and returns the exit code: 0 on success, 1 on any error, which is
 * printed to stderr as a sentence, or the command's own code for a problem it found and reported
 * (`sessions check`: 2). Output goes to stdout: text, or JSON with --json.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const env = io.env ?? process.env;
  const cwd = io.cwd ?? (env.npm_lifecycle_event === 'amber' && env.INIT_CWD ? env.INIT_CWD : process.cwd());
  let app: App | null = null;
  let sessions: SessionStore | null = null;
  try {
    const { values, positionals } = parse(argv);
    if (values.help || positionals[0] === 'help') {
      io.stdout.write(`${await usage()}\n`);
      return 0;
    }
    if (positionals.length === 0) throw new AmberError('invalid_input', 'Name a command, such as `amber sessions list`; see --help for all of them.');
    const { command, args } = await findCommand(positionals);
    const name = `amber ${command.words.join(' ')}`;
    if (args.length !== command.args.length) {
      const expected = command.args.length ? `${command.args.join(' ')}` : 'no arguments';
      throw new AmberError('invalid_input', `${name} takes ${expected}, but was given ${args.length ? args.join(' ') : 'none'}.`);
    }
    const flags: CliFlags = {
      force: values.force,
      cwd,
      new: values.new,
      allow: values.allow,
      sinceLast: values['since-last'],
      full: values.full,
      models: values.model,
      resume: values.resume,
      progress: (line) => io.stderr.write(`${line}\n`),
      ...(values.session !== undefined ? { session: values.session } : {}),
      ...(values.workspace !== undefined ? { workspace: values.workspace } : {}),
      ...(values.repeat !== undefined ? { repeat: count('repeat', values.repeat, 1, 100) } : {}),
      ...(values.concurrency !== undefined ? { concurrency: count('concurrency', values.concurrency, 1, 16) } : {}),
      ...(values.out !== undefined ? { out: values.out } : {}),
      ...(values.judge !== undefined ? { judge: values.judge } : {}),
    };
    const given = [
      values.force && 'force',
      values.new && 'new',
      values.session !== undefined && 'session',
      values.workspace !== undefined && 'workspace',
      values.allow.length > 0 && 'allow',
      values['since-last'] && 'since-last',
      values.full && 'full',
      values.model.length > 0 && 'model',
      values.repeat !== undefined && 'repeat',
      values.concurrency !== undefined && 'concurrency',
      values.out !== undefined && 'out',
      values.judge !== undefined && 'judge',
      values.resume && 'resume',
    ];
    const takes = new Set((command.options ?? []).map((o) => o.split(' ')[0]));
    for (const option of given) if (option && !takes.has(option)) throw new AmberError('invalid_input', `${name} does not take --${option}.`);

    const dataDir = resolve(cwd, values['data-dir'] ?? defaultDataDir(env));
    let output: CliOutput;
    if (command.opens === 'sessions') {
      sessions = openData(dataDir, () => {
        tightenDataDir(dataDir);
        return SessionStore.open(join(dataDir, DATABASE_FILE));
      });
      output = await command.run({ dataDir, sessions }, args, flags);
    } else {
      const options = command.core?.(flags, args) ?? { startPlugins: false };
      const open = io.openApp ?? (await coreOpener());
      app = openData(dataDir, () => open(dataDir, options));
      output = await command.run(app, args, flags);
    }
    io.stdout.write(values.json ? `${JSON.stringify(output.json, null, 2)}\n` : `${output.text}\n`);
    return output.exitCode ?? 0;
  } catch (e) {
    io.stderr.write(`${e instanceof AmberError ? e.message : `Amber failed unexpectedly: ${errorMessage(e)}`}\n`);
    return 1;
  } finally {
    sessions?.close();
    await app?.dispose().catch((e: unknown) => io.stderr.write(`Amber did not close cleanly: ${errorMessage(e)}\n`));
  }
}

/** createApp, loaded only for a command that needs the whole core. */
async function coreOpener(): Promise<NonNullable<CliIo['openApp']>> {
  const { createApp } = await import('../app.ts');
  return (dataDir, options) => createApp({ ...options, dataDir });
}

/** Opens what a command runs against in the data folder; a folder that cannot be opened is said in a sentence. */
function openData<T>(dataDir: string, open: () => T): T {
  try {
    return open();
  } catch (e) {
    if (e instanceof AmberError) throw e;
    throw new AmberError('unavailable', `Cannot open the data folder ${dataDir}: ${errorMessage(e)}.`, { cause: e });
  }
}
