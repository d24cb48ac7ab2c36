import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { defineWorkspaceTool, textOutput, ToolFailure, workspacePath } from './workspace-tool.ts';

export const WriteArgs = z.object({
  path: z.string().describe('File path, relative to the workspace root; missing folders are created'),
  content: z.string().describe('The whole new content of the file'),
});

export const writeTool = defineWorkspaceTool({
  name: 'write',
  description: 'Create or overwrite a file in the workspace with the given content.',
  readOnly: false,
  pathParams: ['path'],
  schema: WriteArgs,
  async run(args, ctx) {
    const file = workspacePath(ctx, args.path);
    if (file.relative === '.') throw new ToolFailure('The workspace root is a folder; give a file path.');
    const existing = await stat(file.path).catch(() => undefined);
    if (existing?.isDirectory()) throw new ToolFailure(`${file.relative} is a folder; give a file path.`);
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, args.content, 'utf8');
    const bytes = Buffer.byteLength(args.content, 'utf8');
    return textOutput(`${existing ? 'Overwrote' : 'Created'} ${file.relative} (${bytes} bytes).`, { path: file.relative, bytes, created: !existing });
  },
});
