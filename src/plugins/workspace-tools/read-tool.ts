import { z } from 'zod';
import { openRegularFile } from './open-regular-file.ts';
import { clipLine, DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from './truncate-output.ts';
import { looksBinary } from './walk-files.ts';
import { defineWorkspaceTool, textOutput, ToolFailure, workspacePath } from './workspace-tool.ts';

const MAX_FILE_BYTES = 20 * 1024 * 1024;

export const ReadArgs = z.object({
  path: z.string().describe('File path, relative to the workspace root'),
  offset: z.number().int().min(1).optional().describe('First line to show, 1-based (default 1)'),
  limit: z.number().int().min(1).optional().describe(`How many lines to show (default and most ${DEFAULT_MAX_LINES})`),
});
export type ReadArgs = z.infer<typeof ReadArgs>;

export const readTool = defineWorkspaceTool({
  name: 'read',
  description: `Read a text file in the workspace. Shows at most ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024} KB; use offset and limit to page through longer files.`,
  readOnly: true,
  pathParams: ['path'],
  schema: ReadArgs,
  async run(args, ctx) {
    const file = await workspacePath(ctx, args.path);
    const { handle, info } = await openRegularFile(file.real, file.relative, 'read', { folder: `${file.relative} is a directory; use ls to list it.` });
    let bytes: Buffer;
    try {
      if (info.size > MAX_FILE_BYTES)
        throw new ToolFailure(`${file.relative} is ${Math.round(info.size / 1024 / 1024)} MB, too large to read; use grep to find the part you need.`);
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
    if (looksBinary(bytes)) throw new ToolFailure(`${file.relative} is a binary file (${bytes.length} bytes); it cannot be shown as text.`);
    const lines = bytes.toString('utf8').split('\n');
    if (lines.length > 1 && lines.at(-1) === '') lines.pop();
    const start = (args.offset ?? 1) - 1;
    if (start >= lines.length && !(start === 0 && lines.length === 0)) {
      throw new ToolFailure(`offset ${args.offset} is past the end of ${file.relative}, which has ${lines.length} lines.`);
    }
    const wanted = Math.min(args.limit ?? DEFAULT_MAX_LINES, DEFAULT_MAX_LINES);
    const shown: string[] = [];
    let size = 0;
    for (let i = start; i < lines.length && shown.length < wanted; i++) {
      const line = clipLine(lines[i], 2000);
      size += Buffer.byteLength(line, 'utf8') + 1;
      if (size > DEFAULT_MAX_BYTES && shown.length > 0) break;
      shown.push(line);
    }
    const end = start + shown.length;
    let text = shown.join('\n');
    if (end < lines.length) {
      const cut = shown.length < wanted ? ` (${DEFAULT_MAX_BYTES / 1024} KB limit)` : '';
      text += `\n\n[Showing lines ${start + 1}-${end} of ${lines.length}${cut}. Use offset=${end + 1} to continue.]`;
    }
    return textOutput(text, { path: file.relative, lines: lines.length, shown: [start + 1, end] });
  },
});
