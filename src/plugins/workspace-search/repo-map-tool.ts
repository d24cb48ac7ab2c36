import { relative } from 'node:path';
import { z } from 'zod';
import { defineWorkspaceTool, resolveWorkspaceTarget, textOutput, type WorkspaceTool } from '../workspace-tools/index.ts';
import type { SearchToolOptions } from './search-tool.ts';

export const RepoMapArgs = z.object({
  focus: z
    .array(z.string().min(1).max(200, 'a focus entry is longer than 200 characters: give a path or a name'))
    .max(20, 'more than 20 focus entries: give the few files or names that matter')
    .optional()
    .describe('Files (paths or parts of paths) and names from the conversation that the map should lean toward'),
  path: z.string().optional().describe('Only map this folder, relative to the workspace root (default: the whole workspace)'),
  tokens: z.number().int().min(100).max(8000).default(1000).describe('About how many tokens the map may take (default 1000)'),
});
export type RepoMapArgs = z.infer<typeof RepoMapArgs>;

/**
 * The `repo_map` tool: an outline of the workspace's most central files and definitions, ranked over the
 * symbol reference graph of the workspace's index and leaning toward the focus given, within a token budget.
 */
export function createRepoMapTool(options: SearchToolOptions): WorkspaceTool {
  const waitMs = options.indexWaitMs ?? 1000;
  return defineWorkspaceTool({
    name: 'repo_map',
    description:
      'An outline of the workspace: its most central files and the definitions in them (functions, classes, types, constants; TypeScript, JavaScript, Python, Go, Rust, shell), ranked by how much the rest of the code uses them, each as "path:" then "line: text". Give focus (files or names from the conversation) to rank what they use and what uses them first. Use it to find your way in unfamiliar code before reading files.',
    readOnly: true,
    pathParams: ['path'],
    schema: RepoMapArgs,
    async run(args, ctx) {
      const target = await resolveWorkspaceTarget(ctx, args.path ?? '.');
      const index = options.indexOf(target.scope.realRoot, target.scope.isDenied);
      if (!index) return textOutput('There is no index to map the workspace from (the plugin has no data folder): use find and search instead.');
      if (index.building && waitMs > 0) await Promise.race([index.ready, new Promise((resolve) => setTimeout(resolve, waitMs))]);
      if (index.disposed) {
        return textOutput(
          'The index here was closed while this call waited for it (another workspace was searched, or Rebuild): call repo_map again to build it on.',
        );
      }
      if (index.building) {
        const { done, total } = index.progress;
        return textOutput(`The index is still building (${done} of ${total} files); the map can be drawn once it is done. Use find and search meanwhile.`);
      }
      const scope = relative(target.scope.realRoot, target.real) || null;
      let map: Awaited<ReturnType<typeof index.repoMap>>;
      try {
        map = await index.repoMap({ focus: args.focus ?? [], scope, tokens: args.tokens });
      } catch (error) {
        if (!options.recover?.(index, error)) throw error;
        return textOutput(
          'The search index was found damaged and is being built again from the workspace; the map can be drawn once it is done. Use find and search meanwhile.',
        );
      }
      const notes: string[] = [];
      if (index.notice) {
        notes.push(`[${index.notice}]`);
        index.notice = null;
      }
      if (map.files === 0) {
        const where = target.relative === '.' ? 'the workspace' : target.relative;
        return textOutput([`No definitions found in ${where} (the map covers TypeScript, JavaScript, Python, Go, Rust and shell files).`, ...notes].join('\n'));
      }
      return textOutput([map.text, ...notes].join('\n\n'), { files: map.files, symbols: map.symbols });
    },
  });
}
