import { z } from 'zod';
import { openRegularFile } from './open-regular-file.ts';
import { replaceContent } from './replace-content.ts';
import { defineWorkspaceTool, textOutput, ToolFailure, workspacePath } from './workspace-tool.ts';

export const EditArgs = z.object({
  path: z.string().describe('File path, relative to the workspace root'),
  oldText: z.string().min(1).describe('Exact text to replace, including whitespace; must occur once unless replaceAll is set'),
  newText: z.string().describe('The replacement text'),
  replaceAll: z.boolean().default(false).describe('Replace every occurrence instead of exactly one'),
});

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

export const editTool = defineWorkspaceTool({
  name: 'edit',
  description: 'Replace exact text in a file in the workspace. oldText must match the file exactly (read it first) and occur once, unless replaceAll is true.',
  readOnly: false,
  pathParams: ['path'],
  schema: EditArgs,
  async run(args, ctx) {
    const file = await workspacePath(ctx, args.path);
    // One handle reads and writes, so the file checked is the file written.
    const { handle } = await openRegularFile(file.real, file.relative, 'edit', { folder: `${file.relative} is a folder, not a file.` });
    try {
      const before = await handle.readFile('utf8');
      const count = occurrences(before, args.oldText);
      if (count === 0)
        throw new ToolFailure(`oldText was not found in ${file.relative}. Read the file and copy the exact text, including whitespace and line breaks.`);
      if (count > 1 && !args.replaceAll) {
        throw new ToolFailure(`oldText occurs ${count} times in ${file.relative}. Include more surrounding text to make it unique, or set replaceAll: true.`);
      }
      // split/join, not String.replace: `$&` and friends in newText must stay literal.
      const after = args.replaceAll ? before.split(args.oldText).join(args.newText) : before.replace(args.oldText, () => args.newText);
      await replaceContent(handle, after);
      const replaced = args.replaceAll ? count : 1;
      return textOutput(`Replaced ${replaced} occurrence${replaced === 1 ? '' : 's'} in ${file.relative}.`, { path: file.relative, replaced });
    } finally {
      await handle.close();
    }
  },
});
