import type { Node, Parser } from 'web-tree-sitter';
import type { ShellClass } from '../../shared/agent/index.ts';
import { baseName, commandPrefix, PREFIX_WRAPPERS } from './command-prefix.ts';
import { INTERPRETERS } from './judge-interpreter.ts';
import { judgeCommand } from './judge-command.ts';
import type { ShellArg, ShellJudge } from './shell-args.ts';
import type { ShellVerdict } from './shell-classify.ts';
import type { ShellLocations } from './shell-locations.ts';
import { argWords, literal } from './shell-words.ts';
import { exportedVariableRisk, shellVariableRisk } from './shell-variables.ts';

const RANK: Record<ShellClass, number> = { read_only: 0, write: 1, unknown: 2, destructive: 3 };
/** `sh -c` strings nested deeper than this are not judged. */
const MAX_DEPTH = 4;
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch']);
const RUN_TIME = 'What it names or sets is only known at run time, so an “always” answer, which is kept by command name, is never kept for it.';

/**
 * Judges one command line: walks its syntax tree (pipelines, lists, subshells, substitutions, redirections,
 * loops, declarations) and every command in it; the worst part decides the class. Paths are handed to
 * ShellLocations, which knows where the line is after its `cd`s and which links it made.
 */
export class LineJudge implements ShellJudge {
  #class: ShellClass = 'read_only';
  #reason = 'It only reads.';
  readonly #outside = new Set<string>();
  readonly #denied = new Set<string>();
  readonly #deniedMentions = new Set<string>();
  /** Protected paths written: as written → why, and the absolute paths for the sandbox. */
  readonly #protected = new Map<string, string>();
  readonly #protectedPaths = new Set<string>();
  #noAlways: string | undefined;
  #prefixes: Set<string> | null = new Set();
  readonly #places: ShellLocations;
  /** `a && b`: b runs only if a worked, so a `cd` ending a leaves the line only where it went. */
  #list(node: Node, depth: number): void {
    const [left, right] = node.namedChildren;
    const op = node.children.find((c) => c !== null && !c.isNamed)?.text;
    if (!left || !right) {
      for (const child of node.namedChildren) if (child) this.#walk(child, depth);
      return;
    }
    this.#walk(left, depth);
    if (op === '&&' && endsWithCd(left)) this.#places.cdSucceeded();
    this.#walk(right, depth);
  }

  /** `for f in …` variables over literal words: their values; null when only known at run time. */
  readonly #loops = new Map<string, string[] | null>();
  /** `set -a`: every later assignment is exported. */
  #allExport = false;
  #inputIsPaths = false;

  readonly #parser: Parser;

  constructor(parser: Parser, places: ShellLocations) {
    this.#parser = parser;
    this.#places = places;
  }

  get inputIsPaths(): boolean {
    return this.#inputIsPaths;
  }

  verdict(): ShellVerdict {
    const outside = [...this.#outside];
    const denied = this.#denied.size > 0 ? [...this.#denied] : [...this.#deniedMentions];
    const [guarded] = this.#protected;
    let reason = this.#reason;
    if (denied.length > 0) reason = `It names ${denied.join(', ')}, in Amber's data folder, which no tool may touch in any mode.`;
    else if (guarded && RANK[this.#class] < RANK.unknown) reason = `It changes ${guarded[0]}, a protected path: ${guarded[1]}.`;
    else if (outside.length > 0 && RANK[this.#class] < RANK.unknown) reason = `It names ${outside.join(', ')}, outside the workspace.`;
    const prefixes = this.#noAlways === undefined && this.#prefixes && this.#prefixes.size > 0 ? [...this.#prefixes] : null;
    const noAlways =
      this.#noAlways ?? (guarded ? 'It changes a protected path, which is asked about every time, so an “always” answer is never kept for it.' : undefined);
    return {
      class: this.#class,
      reason,
      outside,
      prefixes: noAlways === undefined ? prefixes : null,
      protectedPaths: [...this.#protectedPaths],
      denied,
      ...(noAlways !== undefined ? { noAlways } : {}),
    };
  }

  note(cls: ShellClass, reason: string): void {
    if (RANK[cls] > RANK[this.#class]) {
      this.#class = cls;
      this.#reason = reason;
    }
  }

  noAlways(reason: string): void {
    this.#noAlways ??= reason;
  }

  /** The line writes a denied root somewhere in its text (see namesDeniedRoot). */
  mentions(root: string): void {
    this.#deniedMentions.add(root);
  }

  /** Unknown because of what the arguments are at run time, not the command: "always" is never kept for it. */
  #unjudgeable(reason: string): void {
    this.noAlways(RUN_TIME);
    this.note('unknown', reason);
  }

  line(text: string, depth: number): void {
    if (text.trim() === '') return;
    if (depth > MAX_DEPTH) return this.note('unknown', 'It nests shells too deeply to be judged.');
    const tree = this.#parser.parse(text);
    if (!tree) return this.note('unknown', 'The command line could not be parsed.');
    try {
      if (tree.rootNode.hasError) return this.note('unknown', 'The command line does not parse as shell syntax.');
      this.#walk(tree.rootNode, depth);
    } finally {
      tree.delete();
    }
  }

  path(value: string, mode: 'read' | 'write', glob = false): void {
    let v = value.startsWith('file://') ? value.slice('file://'.length) : value;
    if (v.startsWith('-')) {
      const eq = v.indexOf('=');
      if (eq < 0) return;
      v = v.slice(eq + 1);
    } else {
      // `name=~/x` is expanded by the shell (dd if=~/x, make DESTDIR=~/x): its value is a path too.
      const assigned = /^[A-Za-z_][A-Za-z0-9_]*=(.+)$/s.exec(v);
      if (assigned) this.#found(this.#places.check(assigned[1]!, mode, glob));
    }
    this.#found(this.#places.check(v, mode, glob));
  }

  arg(a: ShellArg, mode: 'read' | 'write'): void {
    if (a.found) return;
    if (a.value === null && a.expands === undefined) {
      if (/^("?)(\$HOME|\$\{HOME\}|~)/.test(a.raw)) this.#outside.add(a.raw);
      return this.#unjudgeable(`It names ${a.raw}, a path known only at run time, which cannot be judged.`);
    }
    for (const v of a.expands ?? [a.value!]) this.path(v, mode, a.glob || (a.expands !== undefined && /[*?[]/.test(v)));
  }

  cd(name: string, args: readonly ShellArg[]): void {
    const targets = args.filter((a) => !(a.value !== null && (/^-[LPe@]+$/.test(a.value) || a.value === '--')));
    const to = targets[0];
    if (!to) return this.#unjudgeable(`${name} with no folder goes to the home folder, so later paths cannot be judged.`);
    if (to.value === '-' || (name === 'pushd' && /^[+-]\d+$/.test(to.value ?? '')))
      return this.#unjudgeable(`${name} ${to.value} goes back to a folder known only at run time, so later paths cannot be judged.`);
    if (to.found || (to.value === null && to.expands === undefined))
      return this.#unjudgeable(`${name} moves to a folder known only at run time (${to.raw}), so later paths cannot be judged.`);
    for (const v of to.expands ?? [to.value!]) {
      if (!this.#places.inside(v)) this.#unjudgeable(`${name} ${v} moves outside the workspace, so later paths cannot be judged.`);
      this.#found(this.#places.cd(v));
    }
  }

  link(target: string, name: string, kind: 'symbolic' | 'hard' | 'moved'): void {
    this.#places.link(target, name, kind);
  }

  #found(findings: ReturnType<ShellLocations['check']>): void {
    for (const f of findings) {
      switch (f.kind) {
        case 'device':
          this.note('destructive', `It writes to the device ${f.path}.`);
          break;
        case 'network':
          this.noAlways('It sends data over the network, so an “always” answer is never kept for it.');
          this.note('unknown', `It opens a network connection through ${f.path}.`);
          break;
        case 'unknown':
          this.#unjudgeable(f.reason);
          break;
        case 'outside':
          this.#outside.add(f.written);
          break;
        case 'denied':
          this.#denied.add(f.written);
          break;
        case 'protected':
          if (!this.#protected.has(f.written)) this.#protected.set(f.written, f.why);
          for (const p of f.paths) this.#protectedPaths.add(p);
          break;
      }
    }
  }

  #walk(node: Node, depth: number): void {
    if (node.isError || node.isMissing) return this.note('unknown', 'The command line does not parse as shell syntax.');
    switch (node.type) {
      case 'command':
        return this.#command(node, depth);
      case 'file_redirect':
        return this.#redirect(node, depth);
      case 'pipeline':
        return this.#pipeline(node, depth);
      case 'list':
        return this.#list(node, depth);
      case 'for_statement':
        this.#loop(node);
        break;
      case 'function_definition':
        return this.note('unknown', 'It defines a shell function, which cannot be judged.');
      case 'variable_assignment':
        this.#assignment(node, this.#allExport);
        break;
      case 'declaration_command':
        return this.#declaration(node, depth);
      case 'coproc_statement':
        return this.note('unknown', 'coproc cannot be judged.');
      default:
        break;
    }
    for (const child of node.namedChildren) if (child) this.#walk(child, depth);
  }

  #assignment(node: Node, exported: boolean): void {
    const name = node.childForFieldName('name')?.text ?? '';
    const risk = exported ? exportedVariableRisk(name) : shellVariableRisk(name);
    if (risk) this.#unjudgeable(risk);
  }

  /** `export A=1`, `declare -x A`, `local a=1`: exported ones are held to the allow-list. */
  #declaration(node: Node, depth: number): void {
    const keyword = node.child(0)?.text;
    if (keyword !== 'export' && keyword !== 'local' && keyword !== 'declare' && keyword !== 'readonly' && keyword !== 'typeset') {
      return this.note('unknown', `${keyword ?? 'A declaration'} cannot be judged.`);
    }
    const flags = node.namedChildren.filter((c) => c?.type === 'word' && c.text.startsWith('-')).map((c) => c!.text);
    const exported = keyword === 'export' || this.#allExport || flags.some((f) => /^-[a-z]*x/.test(f));
    if (flags.some((f) => /^-[a-z]*n/.test(f) && keyword !== 'export'))
      this.note('unknown', `${keyword} -n makes a name refer to another variable, which cannot be judged.`);
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'variable_assignment') this.#assignment(child, exported);
      else if (child.type === 'variable_name' && exported) {
        const risk = exportedVariableRisk(child.text);
        if (risk) this.#unjudgeable(risk);
      } else if (child.type !== 'word' && child.type !== 'variable_name') this.note('unknown', `${keyword} of a name known only at run time cannot be judged.`);
      for (const grandchild of child.namedChildren) if (grandchild) this.#walk(grandchild, depth);
    }
  }

  /** `for f in *.md a.txt`: `"$f"` in the body is one of these words. */
  #loop(node: Node): void {
    const variable = node.childForFieldName('variable')?.text;
    if (!variable) return;
    const words = node.childrenForFieldName('value').map((v) => (v ? argWords(v, this.#loops) : null));
    if (words.length === 0 || words.some((w) => w === null)) return void this.#loops.set(variable, null);
    this.#loops.set(
      variable,
      words.flatMap((w) => w!),
    );
  }

  #command(node: Node, depth: number): void {
    const nameNode = node.childForFieldName('name');
    for (const child of node.namedChildren) {
      if (!child) continue;
      // A prefix assignment (`VAR=x cmd`) is given to the command's environment: held to the allow-list.
      if (child.type === 'variable_assignment' && nameNode) {
        this.#assignment(child, true);
        for (const part of child.namedChildren) if (part) this.#walk(part, depth);
      } else this.#walk(child, depth);
    }
    if (!nameNode) return;
    const name = literal(nameNode);
    const args = node.childrenForFieldName('argument').flatMap((a) => (a ? [this.#shellArg(a)] : []));
    const prefix = name === null ? null : commandPrefix(name, args);
    if (prefix === null) this.#prefixes = null;
    else this.#prefixes?.add(prefix);
    if (name === null) return this.note('unknown', `The command name ${nameNode.text} is only known at run time.`);
    if (name === 'set' && args.some((a, i) => /^-[a-zA-Z]*a/.test(a.value ?? '') || (a.value === 'allexport' && args[i - 1]?.value === '-o')))
      this.#allExport = true;
    if (name === 'shopt' && args.some((a) => /^(dotglob|nocaseglob|extglob|globstar|failglob|nullglob)$/.test(a.value ?? '')))
      this.note('unknown', 'shopt changes what wildcards match, so the paths they name cannot be judged.');
    judgeCommand(this, name, args, depth);
  }

  #shellArg(node: Node): ShellArg {
    const value = literal(node);
    const words = argWords(node, this.#loops);
    const arg: ShellArg = { value, raw: node.text, glob: value !== null && isGlob(node) };
    if (words !== null && (words.length !== 1 || words[0] !== value)) arg.expands = words;
    if (value === null && isFoundPaths(node)) arg.found = true;
    return arg;
  }

  #redirect(node: Node, depth: number): void {
    const destination = node.childForFieldName('destination');
    for (const child of node.namedChildren) if (child) this.#walk(child, depth);
    if (!destination || destination.type === 'number' || destination.text === '-') return;
    const op = node.children.find((c) => c !== null && !c.isNamed)?.text ?? '>';
    const writes = op !== '<' && op !== '<&';
    const target = this.#shellArg(destination);
    this.arg(target, writes ? 'write' : 'read');
    if (writes && target.value !== null && !/^\/dev\/(null|stdout|stderr|tty)$/.test(target.value)) this.note('write', `It writes to ${target.value}.`);
  }

  /**
   * Each stage of a pipeline: `curl … | sh` (a download piped into an interpreter) is destructive, and
   * `find … | xargs cmd` gives cmd paths found inside the checked folders.
   */
  #pipeline(node: Node, depth: number): void {
    let downloaded = false;
    let previous: Node | null = null;
    for (const stage of node.namedChildren) {
      if (!stage) continue;
      const words = commandWords(stage);
      let i = 0;
      while (i < words.length && PREFIX_WRAPPERS.has(words[i]!)) i++;
      const name = words[i] === undefined ? undefined : baseName(words[i]!);
      if (name !== undefined && DOWNLOADERS.has(name)) downloaded = true;
      else if (name !== undefined && downloaded && INTERPRETERS.has(name))
        this.note('destructive', `It pipes a download into ${name}, which runs whatever the server sends.`);
      this.#inputIsPaths = previous !== null && listsPaths(commandWords(previous));
      this.#walk(stage, depth);
      this.#inputIsPaths = false;
      previous = stage;
    }
  }
}

/** Whether the last command a list runs is a `cd` or `pushd`. */
function endsWithCd(node: Node): boolean {
  if (node.type === 'list') return node.namedChildren.length > 0 && endsWithCd(node.namedChildren[node.namedChildren.length - 1]!);
  if (node.type !== 'command') return false;
  const name = node.childForFieldName('name');
  return name !== null && ['cd', 'pushd'].includes(literal(name) ?? '');
}

/** `$(git ls-files)`, `<(sort a)`: run-time words that are paths found in checked folders, or a pipe. */
function isFoundPaths(node: Node): boolean {
  if (node.type === 'process_substitution') return true;
  if (node.type === 'string' && node.namedChildren.length === 1) return isFoundPaths(node.namedChildren[0]!);
  if (node.type !== 'command_substitution') return false;
  const inner = node.namedChildren.filter((c) => c !== null);
  if (inner.length !== 1) return false;
  return listsPaths(commandWords(inner[0]!));
}

/**
 * Whether a command prints only paths under the folders it was given (which are checked as it is judged):
 * `find`, `fd`, `ls`, `git ls-files`, `git diff --name-only`, `grep -l`, `rg --files`.
 */
function listsPaths(words: readonly string[]): boolean {
  const [name, sub] = words;
  const opts = words.slice(1).filter((w) => w.startsWith('-'));
  if (name === 'find') return !words.some((w) => /^-(exec|execdir|ok|okdir|printf|fprintf|print0|ls|fls)$/.test(w));
  if (name === 'fd' || name === 'fdfind') return !opts.some((o) => /^-(x|X|-exec|l|-list-details)/.test(o));
  // Long listings print more than names (`link -> /etc/passwd`): only plain `ls` lists paths.
  if (name === 'ls') return opts.every((o) => /^-[1aA]+$/.test(o));
  if (name === 'git') return sub === 'ls-files' || (['diff', 'show', 'log'].includes(sub ?? '') && opts.includes('--name-only'));
  if (name === 'rg' || name === 'grep')
    return opts.some((o) => o === '--files' || o === '--files-with-matches' || o === '--files-without-match' || /^-[a-zA-Z]*[lL]/.test(o));
  return false;
}

/** The literal words of a command stage (null parts dropped), for shape checks like `curl | sh`. */
function commandWords(stage: Node): string[] {
  const cmd = stage.type === 'redirected_statement' ? stage.childForFieldName('body') : stage;
  if (!cmd || cmd.type !== 'command') return [];
  const out: string[] = [];
  for (const child of cmd.namedChildren) {
    if (!child || child.type === 'variable_assignment' || child.type.endsWith('redirect')) continue;
    const text = literal(child.type === 'command_name' ? (child.namedChildren[0] ?? child) : child);
    if (text !== null) out.push(out.length === 0 ? baseName(text) : text);
  }
  return out;
}

/** Whether an argument has an unquoted glob or brace pattern the shell expands. */
function isGlob(node: Node): boolean {
  if (node.type === 'word') return /(^|[^\\])[*?[]/.test(node.text);
  if (node.type === 'brace_expression') return true;
  if (node.type === 'concatenation') return node.namedChildren.some((c) => c !== null && isGlob(c));
  return false;
}
