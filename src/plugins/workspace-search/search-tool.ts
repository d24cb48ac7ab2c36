import { relative } from 'node:path';
import { z } from 'zod';
import type { ToolOutput } from '../../shared/tools/index.ts';
import {
  clipLine,
  defineWorkspaceTool,
  grepTool,
  resolveWorkspaceTarget,
  textOutput,
  ToolFailure,
  truncateOutput,
  type WorkspaceTool,
  type WorkspaceToolContext,
} from '../workspace-tools/index.ts';
import { queryWords } from './search-query.ts';
import type { SearchHit, SearchIndexService } from './search-index-service.ts';
import type { SemanticIndex } from './semantic-index.ts';
import { semanticLines } from './semantic-lines.ts';

export const SearchArgs = z.object({
  query: z
    .string()
    .min(1, 'the query is empty: give a word, an identifier or a fragment to look for')
    .max(500, 'the query is longer than 500 characters: search for a shorter fragment')
    .describe(
      'Words or an identifier (text), a fragment of text (substring), a name (symbol), a regular expression in RE2 syntax (grep), or what the code does in words (semantic)',
    ),
  mode: z
    .enum(['text', 'substring', 'symbol', 'grep', 'semantic'])
    .default('text')
    .describe(
      'text (default): files ranked by the words, a file whose name holds them first; substring: every line holding the fragment, case-insensitive; symbol: where a function, class, type or constant of that name is defined, then the files that use it; grep: lines matching a regular expression, like the grep tool; semantic: files whose code is nearest in meaning to the words, from vectors of an embeddings endpoint the user set in Settings (else text answers, saying so)',
    ),
  path: z.string().optional().describe('Only search this folder, relative to the workspace root (default: the whole workspace)'),
  limit: z.number().int().min(1).max(100).default(20).describe('Most results: files for text and semantic, lines for substring, symbol and grep (default 20)'),
});
export type SearchArgs = z.infer<typeof SearchArgs>;

export interface SearchToolOptions {
  /** The index of a workspace (its real path), or null when there is none to keep (then grep answers). */
  indexOf(realRoot: string, isDenied: (path: string) => boolean): SearchIndexService | null;
  /** How long a call waits for a building index before grep answers instead (default 1000 ms). */
  indexWaitMs?: number;
  /**
   * The vectors of a workspace's index, started at the first search there (any mode); a sentence saying why
   * there are none (semantic search off) instead. Absent: semantic search is off.
   */
  semanticOf?(index: SearchIndexService): SemanticIndex | string;
  /**
   * Given what a call on `index` threw: true when it found the index file damaged (past what opening it checks),
   * which is then made again and built again as Rebuild does, so that grep answers this call. Absent: the error is the call's.
   */
  recover?(index: SearchIndexService, error: unknown): boolean;
}

/** A name symbol mode looks for: letters, digits, `_` and `$`, not starting with a digit. */
const SYMBOL_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

const lineOf = (hit: SearchHit) => `${hit.path}:${hit.line}: ${clipLine(hit.text.trim())}`;

async function fromGrep(args: SearchArgs, ctx: WorkspaceToolContext, pattern: string, literal: boolean, note: string): Promise<ToolOutput> {
  const out = await grepTool.execute({ pattern, path: args.path ?? '.', literal, ignoreCase: literal || args.mode !== 'grep', limit: args.limit }, ctx);
  if (out.isError || note === '') return out;
  return { ...out, content: [...out.content, { type: 'text', text: `\n\n${note}` }] };
}

/**
 * The `search` tool: ranked word search and substring search from the workspace's index, and grep. While
 * the index is first built (and where there is none) the index modes answer from grep, saying so.
 */
export function createSearchTool(options: SearchToolOptions): WorkspaceTool {
  const waitMs = options.indexWaitMs ?? 1000;
  return defineWorkspaceTool({
    name: 'search',
    description:
      'Search the workspace from its index: mode "text" (default; it finds the answer most often) ranks files by the words or identifiers asked for (camelCase and snake_case parts match too) and shows their best lines; "substring" lists every line holding a fragment (case-insensitive); "symbol" lists where a name is defined (TypeScript, JavaScript, Python, Go, Rust, shell), then the files that use it: for a name you know, the surest way to its definition; "grep" matches a regular expression line by line; "semantic" lists the files whose code is nearest in meaning to the words, for code described in other words than its own, from vectors of an embeddings endpoint the user set in Settings (without one, text answers and says so). Prints "path:line: text". Leaves out what .gitignore ignores, .git, node_modules, binary files and files over 1 MB.',
    readOnly: true,
    pathParams: ['path'],
    schema: SearchArgs,
    async run(args, ctx) {
      const target = await resolveWorkspaceTarget(ctx, args.path ?? '.');
      if (args.mode === 'grep') return fromGrep(args, ctx, args.query, false, '');
      const words = queryWords(args.query);
      const name = args.query.trim();
      const symbolName = args.mode === 'symbol' && SYMBOL_NAME.test(name);
      const wordy = (args.mode === 'text' || args.mode === 'semantic') && words.length > 0;
      const grepPattern = symbolName ? `\\b${name.replace(/[$]/g, '\\$')}\\b` : wordy ? words.join('|') : args.query;
      const grepLiteral = !symbolName && !wordy;
      if (args.mode === 'symbol' && !symbolName) {
        throw new ToolFailure(`symbol looks for one name such as getUserName or User, and ${JSON.stringify(args.query)} is not one: use mode text for words.`);
      }
      if (args.mode === 'substring' && [...args.query].length < 3) {
        return fromGrep(args, ctx, args.query, true, '[A fragment under 3 characters is searched with grep.]');
      }
      const index = options.indexOf(target.scope.realRoot, target.scope.isDenied);
      const semantic = index ? (options.semanticOf?.(index) ?? null) : null;
      if (!index)
        return fromGrep(args, ctx, grepPattern, grepLiteral, '[There is no index to search (the plugin has no data folder); these results come from grep.]');
      if (index.building && waitMs > 0) await Promise.race([index.ready, new Promise((resolve) => setTimeout(resolve, waitMs))]);
      if (index.disposed) {
        const why = '[The index here was closed while this search waited for it (another workspace was searched, or Rebuild); these results come from grep.]';
        return fromGrep(args, ctx, grepPattern, grepLiteral, why);
      }
      if (index.building) {
        const { done, total } = index.progress;
        return fromGrep(args, ctx, grepPattern, grepLiteral, `[The index is still building (${done} of ${total} files); these results come from grep.]`);
      }
      // An index file found damaged in use is made again and built again; meanwhile grep answers, saying so.
      try {
        const scope = relative(target.scope.realRoot, target.real) || null;
        const notes: string[] = [];
        if (index.notice) {
          notes.push(`[${index.notice}]`);
          index.notice = null;
        }
        const lines: string[] = [];
        let more = false;
        let mode = args.mode;
        if (mode === 'semantic') {
          const found = await semanticLines(semantic, args.query, scope, args.limit);
          if (found.fallback) mode = 'text';
          else {
            lines.push(...found.lines);
            more = found.more;
          }
          notes.push(...found.notes);
        }
        if (mode === 'semantic') {
          // Answered above.
        } else if (mode === 'text' && words.length) {
          const found = await index.searchText(args.query, scope, args.limit);
          for (const file of found.files) lines.push(...(file.hits.length ? file.hits.map(lineOf) : [`${file.path}: (its path matches)`]));
          more = found.more;
          if (more) notes.push(`[Showing the ${found.files.length} best files; more matched. Add words or give a path to narrow it.]`);
        } else if (mode === 'symbol') {
          const found = await index.searchSymbol(name, scope, args.limit);
          const defs = found.hits.filter((h) => h.kind === 'def');
          const refs = found.hits.filter((h) => h.kind === 'ref');
          if (defs.length) lines.push(`Definitions of ${name}:`, ...defs.map((h) => `${lineOf(h)}  (${h.type})`));
          if (refs.length)
            lines.push(
              `${defs.length ? '\n' : ''}Files that use ${name}:`,
              ...refs.map((h) => `${lineOf(h)}${h.count > 1 ? `  (${h.count} uses in this file)` : ''}`),
            );
          more = found.more;
          if (more) notes.push(`[Showing the first ${found.hits.length}; more matched. Give a path to narrow it.]`);
        } else {
          const found = await index.searchSubstring(args.query, scope, args.limit);
          lines.push(...found.hits.map(lineOf));
          more = found.more;
          if (more) notes.push(`[Showing the first ${found.hits.length} matching lines; more matched. Give a longer fragment or a path to narrow it.]`);
        }
        if (lines.length === 0) {
          const where = target.relative === '.' ? 'the workspace' : target.relative;
          return textOutput([`No matches for ${JSON.stringify(args.query)} in ${where}.`, ...notes].join('\n'));
        }
        return textOutput(truncateOutput([lines.join('\n'), ...notes].join('\n\n')).text, { matches: lines.length, more });
      } catch (error) {
        if (!options.recover?.(index, error)) throw error;
        return fromGrep(
          args,
          ctx,
          grepPattern,
          grepLiteral,
          '[The search index was found damaged and is being built again from the workspace; these results come from grep.]',
        );
      }
    },
  });
}
