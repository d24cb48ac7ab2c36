import type { FileHandle } from 'node:fs/promises';

/** Makes an open file hold exactly `text` (UTF-8), writing from the start whatever the handle's position. */
export async function replaceContent(handle: FileHandle, text: string): Promise<number> {
  const bytes = Buffer.from(text, 'utf8');
  await handle.truncate(0);
  for (let at = 0; at < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, at, bytes.length - at, at);
    at += bytesWritten;
  }
  return bytes.length;
}
