import type { Node } from 'web-tree-sitter';

/** More words than this from one argument are not judged one by one. */
const MAX_WORDS = 64;
/** Stand-ins for `{`, `}` and `,` that must not take part in brace expansion (quoted or escaped ones). */
const KEEP: Record<string, string> = { '{': '\uE000', '}': '\uE001', ',': '\uE002' };
const keep = (s: string) => s.replace(/[{},]/g, (c) => KEEP[c]!);
const RESTORE = (s: string) => s.replace(/[\uE000-\uE002]/g, (c) => ({ '\uE000': '{', '\uE001': '}', '\uE002': ',' })[c]!);

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

/**
 * The words the shell makes of an argument, when they can be known before it runs: brace expansion of its
 * unquoted parts (`{~,x}/.ssh`, `f{1..3}`), and variables of `for` loops over literal words (`"$f"`).
 * Null when a part is only known at run time or it makes too many words. Tilde and globs are left as
 * written (the path check reads them).
 */
export function argWords(node: Node, loops: ReadonlyMap<string, string[] | null>): string[] | null {
  const alternatives = parts(node, loops);
  if (alternatives === null) return null;
  let joined = [''];
  for (const alts of alternatives) {
    if (joined.length * alts.length > MAX_WORDS) return null;
    joined = joined.flatMap((j) => alts.map((a) => j + a));
  }
  const out: string[] = [];
  for (const j of joined) if (!braceExpand(j, out)) return null;
  return out.map(RESTORE);
}

/** Each part of a word with its possible texts; braces that must not expand are replaced by KEEP. */
function parts(node: Node, loops: ReadonlyMap<string, string[] | null>): string[][] | null {
  switch (node.type) {
    case 'word':
      return [[node.text.replace(/\\(.)/gs, (_, c: string) => KEEP[c] ?? c)]];
    case 'number':
    case 'brace_expression':
      return [[node.text]];
    case 'raw_string':
      return [[keep(node.text.slice(1, -1))]];
    case 'simple_expansion':
    case 'expansion': {
      // Only `$f` and `${f}` of a loop variable: parameter expansion happens after brace expansion.
      const name = node.text.replace(/^\$\{?/, '').replace(/\}$/, '');
      const values = loops.get(name);
      if (!/^\w+$/.test(name) || !values) return null;
      return [values.map(keep)];
    }
    case 'string': {
      // Its children cover its text between the quotes; when they do not, it is not judged word by word.
      const children = node.namedChildren.filter((c) => c !== null);
      if (children.reduce((n, c) => n + c.text.length, 0) !== node.text.length - 2) return null;
      const out: string[][] = [];
      for (const child of children) {
        if (child.type === 'string_content') out.push([keep(unquote(child.text))]);
        else {
          const inner = parts(child, loops);
          if (inner === null) return null;
          out.push(...inner);
        }
      }
      return out;
    }
    case 'concatenation': {
      const out: string[][] = [];
      for (const child of node.namedChildren) {
        if (!child) continue;
        const inner = parts(child, loops);
        if (inner === null) return null;
        out.push(...inner);
      }
      return out;
    }
    default:
      return null;
  }
}

const unquote = (s: string) => s.replace(/\\([$`"\\\n])/g, '$1');

/** Bash's brace expansion of one word into `out`; false when it makes more than MAX_WORDS words. */
function braceExpand(word: string, out: string[]): boolean {
  for (let open = word.indexOf('{'); open >= 0; open = word.indexOf('{', open + 1)) {
    let depth = 0;
    const commas: number[] = [];
    let close = -1;
    for (let i = open; i < word.length; i++) {
      const c = word[i];
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        close = i;
        break;
      } else if (c === ',' && depth === 1) commas.push(i);
    }
    if (close < 0) break;
    const inner = word.slice(open + 1, close);
    let alts: string[] | null = null;
    if (commas.length > 0) {
      alts = [];
      let from = open + 1;
      for (const c of [...commas, close]) {
        alts.push(word.slice(from, c));
        from = c + 1;
      }
    } else alts = sequence(inner);
    if (alts === null) continue;
    const head = word.slice(0, open);
    const tail = word.slice(close + 1);
    for (const alt of alts) {
      if (!braceExpand(head + alt + tail, out) || out.length > MAX_WORDS) return false;
    }
    return true;
  }
  out.push(word);
  return out.length <= MAX_WORDS;
}

/** `1..5`, `a..e`, `0..10..2`: the words of a sequence expression, or null when it is not one. */
function sequence(inner: string): string[] | null {
  const m = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(inner);
  if (!m) return null;
  const numeric = /\d/.test(m[1]!);
  if (numeric !== /\d/.test(m[2]!)) return null;
  const from = numeric ? Number(m[1]) : m[1]!.charCodeAt(0);
  const to = numeric ? Number(m[2]) : m[2]!.charCodeAt(0);
  const step = Math.abs(Number(m[3] ?? 1)) || 1;
  if (Math.abs(to - from) / step > MAX_WORDS) return null;
  const out: string[] = [];
  for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step) out.push(numeric ? String(v) : String.fromCharCode(v));
  return out;
}
