import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, open, realpath, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ToolFailure } from './tool-failure.ts';

// Windows has neither flag; there the real-path checks around the open still hold.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCK = constants.O_NONBLOCK ?? 0;

/** read: an existing file, read-only. edit: an existing file, read-write. write: write-only, created if missing. */
export type OpenIntent = 'read' | 'edit' | 'write';

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return 'a special file';
}

function refuse(name: string, info: Stats, folder: string | undefined): ToolFailure {
  if (info.isDirectory() && folder) return new ToolFailure(folder);
  return new ToolFailure(`${name} is ${kindOf(info)}, not a regular file; the workspace tools only read and write regular files.`);
}

const changed = (name: string) => new ToolFailure(`${name} changed while it was being opened (something on its path was replaced); try again.`);

/**
 * A file with several names (hard links) is one file: a change through the name in the workspace changes
 * it under every other name too, wherever those are, and the path rules cannot see them. Reading it is
 * allowed; changing it is not.
 */
const linked = (name: string, links: number) =>
  new ToolFailure(
    `${name} has ${links} names (hard links), and the others may be outside the workspace, so the workspace tools do not change it: a change would reach every name. Write a new file instead, or change it yourself.`,
  );

/**
 * Opens the regular file at a real path (one without symbolic links, as resolveWorkspaceTarget gives).
 * Anything else is refused with a sentence: before opening by lstat, so a FIFO never blocks the tool, and
 * again on the open handle. A file with other names (hard links) is never opened to be changed. The last component is opened with O_NOFOLLOW (and O_NONBLOCK, so a FIFO put
 * there in between cannot block either); then the parent's real path must still be the checked one and
 * the handle must be the file found at the path, or the handle is closed and the tool fails.
 * `folder` is the sentence for a folder, when the tool has a better one; `afterCheck` runs between the
 * lstat and the open (a seam for tests that swap the path there). The caller closes the handle.
 */
export async function openRegularFile(
  real: string,
  name: string,
  intent: OpenIntent,
  options: { folder?: string; afterCheck?: () => Promise<void> } = {},
): Promise<{ handle: FileHandle; info: Stats; created: boolean }> {
  const { folder } = options;
  const before = await lstat(real).catch((error: unknown) => {
    if (intent === 'write' && (error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  });
  if (before && !before.isFile()) throw refuse(name, before, folder);
  if (before && intent !== 'read' && before.nlink > 1) throw linked(name, before.nlink);
  const access =
    intent === 'read' ? constants.O_RDONLY : intent === 'edit' ? constants.O_RDWR : constants.O_WRONLY | (before ? 0 : constants.O_CREAT | constants.O_EXCL);
  await options.afterCheck?.();
  let handle: FileHandle;
  try {
    handle = await open(real, access | NO_FOLLOW | NON_BLOCK, 0o666);
  } catch (error) {
    if (['ELOOP', 'EEXIST', 'ENXIO', 'EMLINK'].includes((error as { code?: string }).code ?? '')) throw changed(name);
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw refuse(name, info, folder);
    if (intent !== 'read' && info.nlink > 1) throw linked(name, info.nlink);
    const parent = dirname(real);
    const [realParent, now] = await Promise.all([realpath(parent), lstat(real)]);
    const same = now.ino === info.ino && now.dev === info.dev;
    if (realParent !== parent || !same) {
      // A file this call created in a place that turned out to be elsewhere is taken back.
      if (!before && same) await unlink(real).catch(() => undefined);
      throw changed(name);
    }
    return { handle, info, created: !before };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
