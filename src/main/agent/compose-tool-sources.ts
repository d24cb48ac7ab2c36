import type { ToolSpec } from '../../shared/tools/index.ts';
import type { ToolSource } from './tool-dispatcher.ts';

/**
 * Several tool sources as one (the plugins' tools and main's own, such as the task tool): listed in the
 * order given, a name listed by an earlier source hiding a later one's. A call goes to the source that listed
 * the name last time the tools were listed, else to the first that lists it now.
 */
export function composeToolSources(sources: readonly ToolSource[]): ToolSource {
  let owners = new Map<string, ToolSource>();
  /** The last list, kept while every source hands out the same spec objects, so the run sees the same array. */
  let last: { parts: (readonly ToolSpec[])[]; specs: readonly ToolSpec[] } | null = null;
  const list = async (): Promise<readonly ToolSpec[]> => {
    const parts = await Promise.all(sources.map((s) => s.list()));
    if (last && last.parts.length === parts.length && last.parts.every((p, i) => sameSpecs(p, parts[i]!))) return last.specs;
    const next = new Map<string, ToolSource>();
    const specs: ToolSpec[] = [];
    parts.forEach((part, i) => {
      for (const spec of part) {
        if (next.has(spec.name)) continue;
        next.set(spec.name, sources[i]!);
        specs.push(spec);
      }
    });
    owners = next;
    last = { parts, specs };
    return specs;
  };
  const ownerOf = async (name: string): Promise<ToolSource | undefined> => {
    const known = owners.get(name);
    if (known) return known;
    for (const source of sources) if ((await source.list()).some((s) => s.name === name)) return source;
    return undefined;
  };
  return {
    list,
    async execute(name, args, execution) {
      const owner = await ownerOf(name);
      if (!owner) throw new Error(`There is no tool named ${name}.`);
      return owner.execute(name, args, execution);
    },
    origin: (name) => owners.get(name)?.origin?.(name),
    answersStop: (name) => owners.get(name)?.answersStop?.(name) === true,
  };
}

function sameSpecs(a: readonly ToolSpec[], b: readonly ToolSpec[]): boolean {
  return a.length === b.length && a.every((spec, i) => spec === b[i]);
}
