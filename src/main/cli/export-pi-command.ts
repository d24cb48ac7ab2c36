import { randomUUID } from 'node:crypto';
import { linkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AmberError, errorMessage } from '../errors.ts';
import { exportPiSession } from '../sessions/index.ts';
import type { SessionsCommand } from './cli-command.ts';

/**
 * Writes the whole file or nothing: a temp file beside it, then linked (new file) or renamed (--force) into
 * place. The file is readable by its owner only (0600): it holds a whole conversation.
 */
function writeWhole(file: string, text: string, force: boolean): void {
  const temp = `${file}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    writeFileSync(temp, text, { flag: 'wx', mode: 0o600 });
    if (force) renameSync(temp, file);
    else linkSync(temp, file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new AmberError('conflict', `${file} already exists; choose another name, or pass --force to overwrite it.`);
    if (code === 'ENOENT') throw new AmberError('not_found', `Cannot write ${file}: its folder does not exist.`);
    if (code === 'EISDIR') throw new AmberError('invalid_input', `${file} is a folder; name the file to write instead.`);
    throw new AmberError('unavailable', `Cannot write ${file}: ${errorMessage(e)}.`);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** `amber export-pi SESSION_ID FILE`: a session as a version 3 pi file whose last line is the active leaf. */
export const exportPiCommand: SessionsCommand = {
  opens: 'sessions',
  words: ['export-pi'],
  args: ['SESSION_ID', 'FILE'],
  options: ['force'],
  summary: 'Export a conversation as a pi session file (version 3); --force overwrites an existing file.',
  run(core, [sessionId, file], { force, cwd }) {
    const path = resolve(cwd, file!);
    const text = exportPiSession(core.sessions, sessionId!);
    writeWhole(path, text, force);
    const lines = text.split('\n').filter(Boolean);
    const entries = lines.length - 1;
    // pi's leaf is the file's last entry.
    const leafId = entries > 0 ? (JSON.parse(lines.at(-1)!) as { id: string }).id : null;
    return {
      json: { sessionId, file: path, entries, leafId },
      text: `Exported conversation ${sessionId} (${entries} entries) to ${path}.`,
    };
  },
};
