import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AmberError, errorMessage } from '../errors.ts';
import { importPiSession, PiSessionFormatError } from '../sessions/index.ts';
import type { SessionsCommand } from './cli-command.ts';

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new AmberError('not_found', `Cannot read ${file}: there is no such file.`);
    if (code === 'EISDIR') throw new AmberError('invalid_input', `${file} is a folder; name a pi session file (.jsonl) instead.`);
    throw new AmberError('unavailable', `Cannot read ${file}: ${errorMessage(e)}.`);
  }
}

/** `amber import-pi FILE`: a pi session file becomes a new session; nothing is written unless all of it is sound. */
export const importPiCommand: SessionsCommand = {
  opens: 'sessions',
  words: ['import-pi'],
  args: ['FILE'],
  summary: 'Import a pi session file (versions 1 to 3) as a new conversation.',
  run(core, [file], { cwd }) {
    const path = resolve(cwd, file!);
    let result;
    try {
      result = importPiSession(core.sessions, readText(path));
    } catch (e) {
      if (e instanceof PiSessionFormatError) throw new AmberError(e.code, `Nothing was imported from ${path}. ${e.message}`, { cause: e });
      throw e;
    }
    const { session, entries, version } = result;
    const title = session.title ? ` "${session.title}"` : '';
    return {
      json: { session, entries, version, file: path },
      text: `Imported ${path} (pi format version ${version}, ${entries} entries) as conversation ${session.id}${title}.`,
    };
  },
};
