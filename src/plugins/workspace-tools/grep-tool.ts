import { lstat } from 'node:fs/promises';
import { basename, matchesGlob, relative } from 'node:path';
import { z } from 'zod';
import { compileGrepPattern } from './grep-pattern.ts';
import { openRegularFile } from './open-regular-file.ts';
import { clipLine, truncateOutput } from './truncate-output.ts';
import { looksBinary, walkFiles } from './walk-files.ts';
import { defineWorkspaceTool, textOutput, workspacePath } from './workspace-tool.ts';

const MAX_FILE_BYTES = 2 * 1024 * 1024;

export const GrepArgs = z.object({
  pattern: z.string().min(1).describe('Regular expression (RE2 syntax: no backreferences or lookaround), or plain text with literal: true'),
  path: z.string().default('.').describe('File or folder to search, relative to the workspace root (default: the root)'),
  glob: z.string().optional().describe('Only files whose name matches this glob, e.g. "*.ts"'),
  ignoreCase: z.boolean().default(false),
  literal: z.boolean().default(false).describe('Treat the pattern as plain text'),
  limit: z.number().int().min(1).max(1000).default(100).describe('Most matching lines (default 100)'),
});

export const grepTool = defineWorkspaceTool({
  name: 'grep',
  description:
    'Search file contents in the workspace. Prints "path:line: text" per matching line. Skips .git, node_modules, binary files, files over 2 MB, symbolic links and anything that is not a regular file.',
  readOnly: true,
  pathParams: ['path'],
  schema: GrepArgs,
  async run(args, ctx) {
    const regex = compileGrepPattern(args.pattern, args);
    const target = await workspacePath(ctx, args.path);
    const files: string[] = [];
    const folder = (await lstat(target.real)).isDirectory();
    if (folder) {
      for await (const entry of walkFiles(target.real, { signal: ctx.signal, skip: target.scope.isDenied })) {
        if (entry.isFile && (!args.glob || matchesGlob(basename(entry.path), args.glob))) files.push(entry.path);
      }
    } else {
      files.push(target.real);
    }
    const hits: string[] = [];
    let more = false;
    let skipped = 0;
    search: for (const file of files) {
      if (ctx.signal?.aborted) break;
      const shown = relative(target.scope.realRoot, file);
      let bytes: Buffer;
      // A single file named by the model is refused with a sentence; in a walk, what cannot be read is skipped.
      const opened = await openRegularFile(file, shown, 'read').catch((error: unknown) => {
        if (!folder) throw error;
        return undefined;
      });
      if (!opened) continue;
      try {
        if (opened.info.size > MAX_FILE_BYTES) {
          skipped++;
          continue;
        }
        bytes = await opened.handle.readFile();
      } catch {
        continue;
      } finally {
        await opened.handle.close();
      }
      if (looksBinary(bytes)) continue;
      const lines = bytes.toString('utf8').split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (!regex.test(lines[i])) continue;
        if (hits.length >= args.limit) {
          more = true;
          break search;
        }
        hits.push(`${shown}:${i + 1}: ${clipLine(lines[i])}`);
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
