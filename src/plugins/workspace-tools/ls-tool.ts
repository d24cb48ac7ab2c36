import { lstat, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { truncateOutput } from './truncate-output.ts';
import { defineWorkspaceTool, textOutput, ToolFailure, workspacePath } from './workspace-tool.ts';

export const LsArgs = z.object({
  path: z.string().default('.').describe('Folder, relative to the workspace root (default: the root)'),
  limit: z.number().int().min(1).max(5000).default(500).describe('Most entries to list (default 500)'),
});

export const lsTool = defineWorkspaceTool({
  name: 'ls',
  description:
    'List a folder in the workspace, sorted by name, folders marked with a trailing "/" and symbolic links with "@" (never followed), hidden files included.',
  readOnly: true,
  pathParams: ['path'],
  schema: LsArgs,
  async run(args, ctx) {
    const dir = await workspacePath(ctx, args.path);
    if (!(await lstat(dir.real)).isDirectory()) throw new ToolFailure(`${dir.relative} is a file, not a folder; use read to see it.`);
    const entries = await readdir(dir.real, { withFileTypes: true });
    // readdir follows a link, so a folder swapped for one after the check must not be listed.
    if ((await realpath(dir.real)) !== dir.real)
      throw new ToolFailure(`${dir.relative} changed while it was being listed (something on its path was replaced); try again.`);
    const names = entries
      .filter((e) => !dir.scope.isDenied(join(dir.real, e.name)))
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.isSymbolicLink() ? `${e.name}@` : e.name))
      .sort((a, b) => a.localeCompare(b));
    if (names.length === 0) return textOutput(`(${dir.relative} is empty)`);
    const listed = names.slice(0, args.limit);
    let text = listed.join('\n');
    if (names.length > listed.length)
      text += `\n\n[Output truncated: showing ${listed.length} of ${names.length} entries. Raise limit or use find with a pattern.]`;
    return textOutput(truncateOutput(text).text, { path: dir.relative, entries: names.length });
  },
});
