import { lstat } from 'node:fs/promises';
import { basename, matchesGlob, relative } from 'node:path';
import { z } from 'zod';
import { truncateOutput } from './truncate-output.ts';
import { walkFiles } from './walk-files.ts';
import { defineWorkspaceTool, textOutput, ToolFailure, workspacePath } from './workspace-tool.ts';

export const FindArgs = z.object({
  pattern: z.string().min(1).describe('Glob, e.g. "*.ts" (matches file names at any depth) or "src/**/*.test.ts" (matches paths from the search folder)'),
  path: z.string().default('.').describe('Folder to search, relative to the workspace root (default: the root)'),
  limit: z.number().int().min(1).max(10_000).default(1000).describe('Most results (default 1000)'),
});

export const findTool = defineWorkspaceTool({
  name: 'find',
  description:
    'Find files and folders in the workspace by glob pattern. Skips .git and node_modules; does not follow symbolic links. Paths are shown relative to the workspace root.',
  readOnly: true,
  pathParams: ['path'],
  schema: FindArgs,
  async run(args, ctx) {
    const dir = await workspacePath(ctx, args.path);
    if (!(await lstat(dir.real)).isDirectory()) throw new ToolFailure(`${dir.relative} is a file, not a folder.`);
    const byName = !args.pattern.includes('/');
    const found: string[] = [];
    let more = false;
    for await (const entry of walkFiles(dir.real, { signal: ctx.signal, skip: dir.scope.isDenied })) {
      const fromSearch = relative(dir.real, entry.path);
      if (!matchesGlob(byName ? basename(entry.path) : fromSearch, args.pattern)) continue;
      if (found.length >= args.limit) {
        more = true;
        break;
      }
      found.push(relative(dir.scope.realRoot, entry.path) + (entry.isDirectory ? '/' : ''));
    }
    if (found.length === 0) return textOutput(`No files match ${args.pattern} in ${dir.relative}.`);
    let text = found.join('\n');
    if (more) text += `\n\n[Output truncated: showing the first ${found.length} matches. Narrow the pattern or the folder.]`;
    return textOutput(truncateOutput(text).text, { matches: found.length, more });
  },
});
