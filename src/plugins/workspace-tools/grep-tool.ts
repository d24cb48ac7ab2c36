import { readFile, stat } from 'node:fs/promises';
import { basename, matchesGlob, relative } from 'node:path';
import { z } from 'zod';
import { clipLine, truncateOutput } from './truncate-output.ts';
import { looksBinary, walkFiles } from './walk-files.ts';
import { defineWorkspaceTool, textOutput, ToolFailure, workspacePath } from './workspace-tool.ts';

const MAX_FILE_BYTES = 2 * 1024 * 1024;

export const GrepArgs = z.object({
  pattern: z.string().min(1).describe('Regular expression (JavaScript syntax), or plain text with literal: true'),
  path: z.string().default('.').describe('File or folder to search, relative to the workspace root (default: the root)'),
  glob: z.string().optional().describe('Only files whose name matches this glob, e.g. "*.ts"'),
  ignoreCase: z.boolean().default(false),
  literal: z.boolean().default(false).describe('Treat the pattern as plain text'),
  limit: z.number().int().min(1).max(1000).default(100).describe('Most matching lines (default 100)'),
});

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const grepTool = defineWorkspaceTool({
  name: 'grep',
  description: 'Search file contents in the workspace. Prints "path:line: text" per matching line. Skips .git, node_modules, binary files and files over 2 MB.',
  readOnly: true,
  pathParams: ['path'],
  schema: GrepArgs,
  async run(args, ctx) {
    const target = workspacePath(ctx, args.path);
    let regex: RegExp;
    try {
      regex = new RegExp(args.literal ? escapeRegExp(args.pattern) : args.pattern, args.ignoreCase ? 'i' : '');
    } catch (error) {
      throw new ToolFailure(`The pattern is not a valid regular expression (${(error as Error).message}); fix it or pass literal: true.`);
    }
    const files: string[] = [];
    if ((await stat(target.path)).isDirectory()) {
      for await (const entry of walkFiles(target.path, ctx.signal)) {
        if (!entry.isDirectory && (!args.glob || matchesGlob(basename(entry.path), args.glob))) files.push(entry.path);
      }
    } else {
      files.push(target.path);
    }
    const hits: string[] = [];
    let more = false;
    let skipped = 0;
    search: for (const file of files) {
      if (ctx.signal?.aborted) break;
      let bytes: Buffer;
      try {
        if ((await stat(file)).size > MAX_FILE_BYTES) {
          skipped++;
          continue;
        }
        bytes = await readFile(file);
      } catch {
        continue;
      }
      if (looksBinary(bytes)) continue;
      const lines = bytes.toString('utf8').split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (!regex.test(lines[i])) continue;
        if (hits.length >= args.limit) {
          more = true;
          break search;
        }
        hits.push(`${relative(ctx.root, file)}:${i + 1}: ${clipLine(lines[i])}`);
      }
    }
    const notes: string[] = [];
    if (more) notes.push(`[Output truncated: showing the first ${hits.length} matching lines. Narrow the pattern, path or glob.]`);
    if (skipped > 0) notes.push(`[${skipped} file(s) over 2 MB were not searched.]`);
    if (hits.length === 0) return textOutput([`No matches for ${args.pattern} in ${target.relative}.`, ...notes].join('\n'));
    const text = [hits.join('\n'), ...notes].join('\n\n');
    return textOutput(truncateOutput(text).text, { matches: hits.length, more });
  },
});
