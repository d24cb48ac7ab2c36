import { lstat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { createFolders } from './create-folders.ts';
import { openRegularFile } from './open-regular-file.ts';
import { replaceContent } from './replace-content.ts';
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
    const file = await workspacePath(ctx, args.path);
    if (file.relative === '.') throw new ToolFailure('The workspace root is a folder; give a file path.');
    if ((await lstat(file.real).catch(() => undefined))?.isDirectory()) throw new ToolFailure(`${file.relative} is a folder; give a file path.`);
    await createFolders(dirname(file.real), file.relative);
    const { handle, created } = await openRegularFile(file.real, file.relative, 'write');
    let bytes: number;
    try {
      bytes = await replaceContent(handle, args.content);
    } finally {
      await handle.close();
    }
    return textOutput(`${created ? 'Created' : 'Overwrote'} ${file.relative} (${bytes} bytes).`, { path: file.relative, bytes, created });
  },
});
