import { IMPORTING, languageOf } from './symbol-tagger.ts';

/** The symbol reference graph as the index gives it: definitions, and each file's uses of a name. */
export interface SymbolGraph {
  /** Paths by file id. */
  paths: Map<number, string>;
  /** Definitions: file id, name, type, line. */
  defs: { file: number; name: string; type: string; line: number }[];
  /** A file's uses of a name: file id, name, how many, and whether the file imports it by name. */
  refs: { file: number; name: string; count: number; imported: boolean }[];
}

/** A ranked definition: its file, name, type, line and weight. */
export interface RankedDef {
  path: string;
  name: string;
  type: string;
  line: number;
  rank: number;
}

export interface RankOptions {
  /** Paths (or parts of paths) and words the map leans toward: files they name, names they hold. */
  focus?: readonly string[];
  iterations?: number;
}

/** A name defined in more files than this is too common to say which file a use means (init, run, get). */
const MAX_DEFINERS = 8;
const DAMPING = 0.85;

const key = (file: number, name: string) => `${file}\0${name}`;
const identifierLike = (name: string) => name.length >= 8 && /[a-z][A-Z]|_[a-z]/.test(name);

/**
 * Ranks definitions by how central their files are in the reference graph (aider's repo map, in the open):
 * each file that uses a name links to the files that define it (by imported names only where the language imports), weighted by √uses (×10 for a long identifier
 * or a focus word, ×0.1 for a private `_name` or a name defined in many files); a PageRank over the files
 * (personalised toward the files the focus names, when it names some) then passes each file's rank along its
 * links to the definitions it uses. Definitions come best first; files that use nothing and are used by
 * nothing rank by their definitions' count alone, after the rest.
 */
export function rankDefinitions(graph: SymbolGraph, options: RankOptions = {}): RankedDef[] {
  const focus = (options.focus ?? []).map((f) => f.trim()).filter((f) => f !== '');
  const focusWords = new Set(focus.map((f) => f.toLowerCase()));
  const definers = new Map<string, Set<number>>();
  for (const def of graph.defs) {
    let files = definers.get(def.name);
    if (!files) definers.set(def.name, (files = new Set()));
    files.add(def.file);
  }
  // Links: from a using file to each defining file, per name. A file of a language that imports names
  // (TypeScript, JavaScript, Python, Rust) links only by those: its other uses are of local names, members or
  // the language's own. Go and shell files use names unqualified, so every use links.
  const importing = new Map<number, boolean>();
  for (const [id, path] of graph.paths) importing.set(id, IMPORTING.has(languageOf(path) ?? ''));
  const links = new Map<number, { to: number; name: string; weight: number }[]>();
  for (const ref of graph.refs) {
    if (!ref.imported && importing.get(ref.file)) continue;
    const files = definers.get(ref.name);
    if (!files || files.size > MAX_DEFINERS) continue;
    let weight = Math.sqrt(ref.count);
    if (identifierLike(ref.name)) weight *= 10;
    if (focusWords.has(ref.name.toLowerCase())) weight *= 10;
    if (ref.name.startsWith('_')) weight *= 0.1;
    if (files.size > 3) weight *= 0.1;
    for (const to of files) {
      if (to === ref.file) continue;
      let out = links.get(ref.file);
      if (!out) links.set(ref.file, (out = []));
      out.push({ to, name: ref.name, weight: weight / files.size });
    }
  }
  const nodes = [...graph.paths.keys()];
  const n = nodes.length;
  if (n === 0) return [];
  // Files by index, so that the iterations run over typed arrays.
  const slot = new Map(nodes.map((id, i) => [id, i]));
  // The personalisation: files whose path holds a focus entry, else every file alike.
  const lowerFocus = focus.map((f) => f.toLowerCase().replace(/^\.\//, ''));
  const jump = new Float64Array(n);
  let personal = 0;
  for (const [i, id] of nodes.entries()) {
    const path = graph.paths.get(id)!.toLowerCase();
    if (lowerFocus.some((f) => f.length >= 3 && path.includes(f))) {
      jump[i] = 1;
      personal++;
    }
  }
  if (personal === 0) jump.fill(1 / n);
  else for (let i = 0; i < n; i++) jump[i]! /= personal;
  const totals = new Map<number, number>();
  for (const [from, out] of links)
    totals.set(
      from,
      out.reduce((sum, l) => sum + l.weight, 0),
    );
  // Each file's links as (target slot, share of its rank).
  const edges = [...links].map(([from, out]) => ({
    from: slot.get(from)!,
    to: out.map((l) => slot.get(l.to)!),
    share: out.map((l) => l.weight / totals.get(from)!),
  }));
  const linked = new Uint8Array(n);
  for (const edge of edges) linked[edge.from] = 1;
  let rank = Float64Array.from(jump);
  for (let iteration = 0; iteration < (options.iterations ?? 20); iteration++) {
    const next = new Float64Array(n);
    let dangling = 0;
    for (let i = 0; i < n; i++) if (!linked[i]) dangling += rank[i]!;
    for (const edge of edges) {
      const r = DAMPING * rank[edge.from]!;
      for (let k = 0; k < edge.to.length; k++) next[edge.to[k]!]! += r * edge.share[k]!;
    }
    for (let i = 0; i < n; i++) next[i]! += (1 - DAMPING + DAMPING * dangling) * jump[i]!;
    rank = next;
  }
  const rankOf = (id: number) => rank[slot.get(id)!]!;
  // Each file's rank passes along its links to the definitions it uses.
  const defRank = new Map<string, number>();
  for (const [from, out] of links) {
    const total = totals.get(from)!;
    for (const link of out) defRank.set(key(link.to, link.name), (defRank.get(key(link.to, link.name)) ?? 0) + (rankOf(from) * link.weight) / total);
  }
  const ranked = graph.defs.map((def) => ({
    path: graph.paths.get(def.file)!,
    name: def.name,
    type: def.type,
    line: def.line,
    // A definition nobody uses still ranks by its file's rank, far below any used one.
    rank: (defRank.get(key(def.file, def.name)) ?? 0) + rankOf(def.file) * 1e-3 + (focusWords.has(def.name.toLowerCase()) ? 1 : 0),
  }));
  return ranked.sort((a, b) => b.rank - a.rank || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
}
