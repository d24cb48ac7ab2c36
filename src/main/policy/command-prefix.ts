import { INTERPRETERS } from './judge-interpreter.ts';
import type { ShellArg } from './shell-args.ts';

/** Commands that run the command after them (`sudo make`, `env X=1 npm test`). */
export const PREFIX_WRAPPERS = new Set(['sudo', 'doas', 'env', 'nice', 'nohup', 'time', 'command', 'exec', 'stdbuf']);
/** Commands whose prefix would cover other commands or code: an “always” answer never covers them. */
const NO_PREFIX = new Set([
  ...PREFIX_WRAPPERS,
  ...INTERPRETERS,
  'eval',
  'source',
  '.',
  'xargs',
  'timeout',
  'ionice',
  'builtin',
  'watch',
  'su',
  'pkexec',
  'ssh',
  'find',
  'fd',
]);
/** Commands whose second word says what they do (`npm test`, `git commit`): their prefix is both words. */
const TWO_WORDS = new Set([
  'git',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'npx',
  'pnpx',
  'bunx',
  'cargo',
  'go',
  'pip',
  'pip3',
  'make',
  'docker',
  'kubectl',
  'gh',
  'uv',
  'poetry',
  'dotnet',
  'deno',
  'systemctl',
]);

/**
 * The prefix an “always” answer is kept under: the command name, or its first two words for tools with
 * subcommands. Null when no prefix is safe (see NO_PREFIX) or the words are only known at run time.
 */
export function commandPrefix(rawName: string, args: readonly ShellArg[]): string | null {
  const name = baseName(rawName);
  if (rawName.includes('/') || NO_PREFIX.has(name) || /^[A-Za-z0-9_.+-]+$/.test(name) === false) return null;
  if (!TWO_WORDS.has(name)) return name;
  const second = args[0]?.value;
  if (!second || second.startsWith('-') || !/^[A-Za-z0-9_.:+-]+$/.test(second)) return null;
  return `${name} ${second}`;
}

export function baseName(name: string): string {
  const slash = name.lastIndexOf('/');
  return slash >= 0 ? name.slice(slash + 1) : name;
}
