import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { Language, type Node, Parser } from 'web-tree-sitter';
import type { ShellClass } from '../../shared/agent/index.ts';
import { judgeCommand } from './judge-command.ts';
import type { ShellArg, ShellJudge } from './shell-args.ts';
import { isInside } from './path-confinement.ts';

/** How a command line was judged: its worst part decides, and `outside` lists paths beyond the workspace. */
export interface ShellVerdict {
  class: ShellClass;
  reason: string;
  /** Paths the line names that lie outside the workspace (as written); any makes the policy ask. */
  outside: string[];
  /**
   * The prefix of every command in the line (`npm test`, `ls`), by which an "always" answer is kept; null
   * when one of them has none (wrappers, shells, interpreters without a script, names known at run time).
   */
  prefixes: string[] | null;
}

export interface ShellClassifyOptions {
  /** Absolute workspace folder: the command's working directory. */
  workspaceRoot: string;
  /** What `~` means; the user's home folder by default. */
  home?: string;
}

const RANK: Record<ShellClass, number> = { read_only: 0, write: 1, unknown: 2, destructive: 3 };
/** `sh -c` strings nested deeper than this are not judged. */
const MAX_DEPTH = 4;
/** Variables that change which program runs or what it loads: a command line that sets them is not judged. */
const RISKY_VARIABLES = new Set(['PATH', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES', 'BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'IFS', 'NODE_OPTIONS', 'GIT_SSH_COMMAND', 'GIT_EXEC_PATH', 'PYTHONPATH', 'PYTHONSTARTUP']);
const HARMLESS_DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/stdin', '/dev/zero', '/dev/random', '/dev/urandom']);
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch']);
const INTERPRETERS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'python', 'python3', 'node', 'perl', 'ruby', 'php']);
const PREFIX_WRAPPERS = new Set(['sudo', 'doas', 'env', 'nice', 'nohup', 'time', 'command', 'exec', 'stdbuf']);

let parser: Parser | null = null;
let loading: Promise<void> | null = null;

/**
 * Loads tree-sitter's bash grammar (WASM) once. Until it has loaded, every line is judged 'unknown', so a
 * caller that cannot wait still fails safe.
 */
export function loadShellParser(): Promise<void> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    await Parser.init();
    const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const p = new Parser();
    p.setLanguage(language);
    parser = p;
  })().catch((e: unknown) => {
    loading = null;
    throw e;
  });
  return loading;
}

/**
 * Judges a shell command line before it runs, on every command in it: pipelines, lists, subshells,
 * substitutions, redirections, wrappers (sudo, env, xargs, find -exec, …) and `sh -c` strings. Anything
 * that does not parse, or that cannot be judged from its text, is 'unknown'. Pure: nothing is run or read.
 */
export function shellClassify(line: string, options: ShellClassifyOptions): ShellVerdict {
  if (!parser) return { class: 'unknown', reason: 'The shell parser is not loaded yet, so the command could not be judged.', outside: [], prefixes: null };
  const judge = new Judge(options.workspaceRoot, options.home ?? homedir());
  judge.line(line, 0);
  return judge.verdict();
}

class Judge implements ShellJudge {
  #class: ShellClass = 'read_only';
  #reason = 'It only reads.';
  readonly #outside = new Set<string>();
  #prefixes: Set<string> | null = new Set();
  readonly #root: string;
  readonly #home: string;

  constructor(root: string, home: string) {
    this.#root = root;
    this.#home = home;
  }

  verdict(): ShellVerdict {
    const outside = [...this.#outside];
    const reason = outside.length > 0 && RANK[this.#class] < RANK.unknown ? `It names ${outside.join(', ')}, outside the workspace.` : this.#reason;
    const prefixes = this.#prefixes && this.#prefixes.size > 0 ? [...this.#prefixes] : null;
    return { class: this.#class, reason, outside, prefixes };
  }

  note(cls: ShellClass, reason: string): void {
    if (RANK[cls] > RANK[this.#class]) {
      this.#class = cls;
      this.#reason = reason;
    }
  }

  line(text: string, depth: number): void {
    if (text.trim() === '') return;
    if (depth > MAX_DEPTH) return this.note('unknown', 'It nests shells too deeply to be judged.');
    const tree = parser!.parse(text);
    if (!tree) return this.note('unknown', 'The command line could not be parsed.');
    try {
      if (tree.rootNode.hasError) return this.note('unknown', 'The command line does not parse as shell syntax.');
      this.#walk(tree.rootNode, depth);
    } finally {
      tree.delete();
    }
  }

  path(value: string, mode: 'read' | 'write'): void {
    let v = value.startsWith('file://') ? value.slice('file://'.length) : value;
    if (v.startsWith('-')) {
      const eq = v.indexOf('=');
      if (eq < 0) return;
      v = v.slice(eq + 1);
    }
    let full: string;
    if (v === '~' || v.startsWith('~/')) full = this.#home + v.slice(1);
    else if (v.startsWith('~')) return void this.#outside.add(value);
    else if (isAbsolute(v) || v === '..' || v.startsWith('../') || v.includes('/../') || v.endsWith('/..')) full = resolve(this.#root, v);
    else return;
    if (full.startsWith('/dev/')) {
      if (HARMLESS_DEVICES.has(full) || full.startsWith('/dev/fd/')) return;
      if (mode === 'write') this.note('destructive', `It writes to the device ${full}.`);
    }
    if (!isInside(this.#root, full)) this.#outside.add(v);
  }

  dynamicPath(raw: string): void {
    if (/^("?)(\$HOME|\$\{HOME\}|~)/.test(raw)) this.#outside.add(raw);
  }

  #walk(node: Node, depth: number): void {
    if (node.isError || node.isMissing) return this.note('unknown', 'The command line does not parse as shell syntax.');
    switch (node.type) {
      case 'command':
        return this.#command(node, depth);
      case 'file_redirect':
        return this.#redirect(node, depth);
      case 'pipeline':
        this.#pipeline(node);
        break;
      case 'function_definition':
        return this.note('unknown', 'It defines a shell function, which cannot be judged.');
      case 'variable_assignment':
        this.#assignment(node);
        break;
      case 'declaration_command': {
        const keyword = node.child(0)?.text;
        if (keyword !== 'export' && keyword !== 'local' && keyword !== 'declare' && keyword !== 'readonly' && keyword !== 'typeset') {
          this.note('unknown', `${keyword ?? 'A declaration'} cannot be judged.`);
        }
        break;
      }
      case 'coproc_statement':
        return this.note('unknown', 'coproc cannot be judged.');
      default:
        break;
    }
    for (const child of node.namedChildren) if (child) this.#walk(child, depth);
  }

  #assignment(node: Node): void {
    const name = node.childForFieldName('name')?.text ?? '';
    if (RISKY_VARIABLES.has(name)) this.note('unknown', `It sets ${name}, which changes what later commands run.`);
  }

  #command(node: Node, depth: number): void {
    for (const child of node.namedChildren) if (child) this.#walk(child, depth);
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    const name = literal(nameNode);
    const args = node.childrenForFieldName('argument').flatMap((a) => (a ? [shellArg(a)] : []));
    const prefix = name === null ? null : commandPrefix(name, args);
    if (prefix === null) this.#prefixes = null;
    else this.#prefixes?.add(prefix);
    if (name === null) return this.note('unknown', `The command name ${nameNode.text} is only known at run time.`);
    judgeCommand(this, name, args, depth);
  }

  #redirect(node: Node, depth: number): void {
    const destination = node.childForFieldName('destination');
    for (const child of node.namedChildren) if (child) this.#walk(child, depth);
    if (!destination || destination.type === 'number' || destination.text === '-') return;
    const op = node.children.find((c) => c !== null && !c.isNamed)?.text ?? '>';
    const writes = op !== '<' && op !== '<&';
    const target = literal(destination);
    if (target === null) {
      this.dynamicPath(destination.text);
      if (writes) this.note('unknown', `It writes to ${destination.text}, a file named only at run time.`);
      return;
    }
    this.path(target, writes ? 'write' : 'read');
    if (writes && !HARMLESS_DEVICES.has(target)) this.note('write', `It writes to ${target}.`);
  }

  /** `curl … | sh`: a download piped into an interpreter. */
  #pipeline(node: Node): void {
    let downloaded = false;
    for (const stage of node.namedChildren) {
      const words = stage ? commandWords(stage) : [];
      let i = 0;
      while (i < words.length && PREFIX_WRAPPERS.has(words[i]!)) i++;
      const name = words[i];
      if (name === undefined) continue;
      if (DOWNLOADERS.has(name)) downloaded = true;
      else if (downloaded && INTERPRETERS.has(name)) this.note('destructive', `It pipes a download into ${name}, which runs whatever the server sends.`);
    }
  }
}

/** Commands whose prefix would cover other commands or code: an "always" answer never covers them. */
const NO_PREFIX = new Set([...PREFIX_WRAPPERS, ...INTERPRETERS, 'eval', 'source', '.', 'xargs', 'timeout', 'ionice', 'builtin', 'watch', 'su', 'pkexec', 'ssh', 'find', 'fd', 'awk', 'gawk']);
/** Commands whose second word says what they do (`npm test`, `git commit`): their prefix is both words. */
const TWO_WORDS = new Set(['git', 'npm', 'pnpm', 'yarn', 'bun', 'npx', 'pnpx', 'bunx', 'cargo', 'go', 'pip', 'pip3', 'make', 'docker', 'kubectl', 'gh', 'uv', 'poetry', 'dotnet', 'deno', 'systemctl']);

/**
 * The prefix an "always" answer is kept under: the command name, or its first two words for tools with
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

/** The literal words of a command stage (null parts dropped), for shape checks like `curl | sh`. */
function commandWords(stage: Node): string[] {
  const cmd = stage.type === 'redirected_statement' ? stage.childForFieldName('body') : stage;
  if (!cmd || cmd.type !== 'command') return [];
  const out: string[] = [];
  for (const child of cmd.namedChildren) {
    if (!child || child.type === 'variable_assignment' || child.type.endsWith('redirect')) continue;
    const text = literal(child.type === 'command_name' ? (child.namedChildren[0] ?? child) : child);
    if (text !== null) out.push(baseName(text));
  }
  return out;
}

export function baseName(name: string): string {
  const slash = name.lastIndexOf('/');
  return slash >= 0 ? name.slice(slash + 1) : name;
}

function shellArg(node: Node): ShellArg {
  const value = literal(node);
  return { value, raw: node.text, glob: value !== null && isGlob(node) };
}

/** Whether an argument has an unquoted glob or brace pattern the shell expands. */
function isGlob(node: Node): boolean {
  if (node.type === 'word') return /(^|[^\\])[*?[]/.test(node.text);
  if (node.type === 'brace_expression') return true;
  if (node.type === 'concatenation') return node.namedChildren.some((c) => c !== null && isGlob(c));
  return false;
}

/** The static value of a word, or null when part of it is only known at run time. */
export function literal(node: Node): string | null {
  switch (node.type) {
    case 'word':
      return node.text.replace(/\\(.)/gs, '$1');
    case 'number':
    case 'brace_expression':
      return node.text;
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string': {
      if (node.namedChildren.some((c) => c !== null && c.type !== 'string_content')) return null;
      return node.text.slice(1, -1).replace(/\\([$`"\\\n])/g, '$1');
    }
    case 'concatenation': {
      let out = '';
      for (const c of node.namedChildren) {
        if (!c) continue;
        const part = literal(c);
        if (part === null) return null;
        out += part;
      }
      return out;
    }
    case 'command_name':
      return node.namedChildren[0] ? literal(node.namedChildren[0]) : null;
    default:
      return null;
  }
}
