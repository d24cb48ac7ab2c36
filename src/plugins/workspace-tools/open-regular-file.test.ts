import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openRegularFile } from './open-regular-file.ts';

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'amber-open-'));
  root = join(base, 'ws');
  outside = join(base, 'ws2');
  mkdirSync(join(root, 'dir'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'dir', 'file.txt'), 'inside\n');
  writeFileSync(join(outside, 'file.txt'), 'outside\n');
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

/** Swaps the checked file for a link to the outside one, between the check and the open. */
const swapFileForLink = async () => {
  unlinkSync(join(root, 'dir', 'file.txt'));
  symlinkSync(join(outside, 'file.txt'), join(root, 'dir', 'file.txt'));
};
/** Swaps the checked parent folder for a link to the outside folder, between the check and the open. */
const swapParentForLink = async () => {
  renameSync(join(root, 'dir'), join(root, 'dir-was'));
  symlinkSync(outside, join(root, 'dir'));
};

describe('openRegularFile', () => {
  test('opens a regular file at its real path for reading, editing and writing', async () => {
    for (const intent of ['read', 'edit', 'write'] as const) {
      const { handle, created } = await openRegularFile(join(root, 'dir', 'file.txt'), 'dir/file.txt', intent);
      expect(created).toBe(false);
      await handle.close();
    }
    const made = await openRegularFile(join(root, 'dir', 'new.txt'), 'dir/new.txt', 'write');
    expect(made.created).toBe(true);
    await made.handle.close();
    expect(existsSync(join(root, 'dir', 'new.txt'))).toBe(true);
  });

  test.each(['read', 'edit', 'write'] as const)('%s never follows a final link swapped in after the check', async (intent) => {
    const attempt = openRegularFile(join(root, 'dir', 'file.txt'), 'dir/file.txt', intent, { afterCheck: swapFileForLink });
    await expect(attempt).rejects.toThrow('dir/file.txt changed while it was being opened (something on its path was replaced); try again.');
    expect(readFileSync(join(outside, 'file.txt'), 'utf8')).toBe('outside\n');
  });

  test.each(['read', 'edit', 'write'] as const)('%s refuses a handle opened through a parent folder swapped for a link after the check', async (intent) => {
    const attempt = openRegularFile(join(root, 'dir', 'file.txt'), 'dir/file.txt', intent, { afterCheck: swapParentForLink });
    await expect(attempt).rejects.toThrow(/changed while it was being opened/);
    expect(readFileSync(join(outside, 'file.txt'), 'utf8')).toBe('outside\n');
  });

  test('a new file created through a parent swapped for a link is taken back', async () => {
    const attempt = openRegularFile(join(root, 'dir', 'new.txt'), 'dir/new.txt', 'write', { afterCheck: swapParentForLink });
    await expect(attempt).rejects.toThrow(/changed while it was being opened/);
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
  });
});

describe('a file with other names (hard links)', () => {
  test('is read, but never opened to be changed: its other name may be outside the workspace', async () => {
    linkSync(join(outside, 'file.txt'), join(root, 'dir', 'linked.txt'));
    const read = await openRegularFile(join(root, 'dir', 'linked.txt'), 'dir/linked.txt', 'read');
    await read.handle.close();
    for (const intent of ['edit', 'write'] as const) {
      await expect(openRegularFile(join(root, 'dir', 'linked.txt'), 'dir/linked.txt', intent)).rejects.toThrow(
        'dir/linked.txt has 2 names (hard links), and the others may be outside the workspace, so the workspace tools do not change it',
      );
    }
    expect(readFileSync(join(outside, 'file.txt'), 'utf8')).toBe('outside\n');
  });

  test('made a hard link between the check and the open, it is still refused on the open handle', async () => {
    const attempt = openRegularFile(join(root, 'dir', 'file.txt'), 'dir/file.txt', 'edit', {
      afterCheck: async () => linkSync(join(root, 'dir', 'file.txt'), join(outside, 'other-name.txt')),
    });
    await expect(attempt).rejects.toThrow(/has 2 names \(hard links\)/);
  });
});
