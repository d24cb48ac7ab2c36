import { AmberError } from '../errors.ts';
import type { SessionsCommand } from './cli-command.ts';

const count = (n: number): string => n.toLocaleString('en');

/** Exit code of `sessions check` when entries were changed outside Amber (1 stays for errors). */
export const CHANGED_EXIT_CODE = 2;

/**
 * `amber sessions check SESSION_ID [--full]`: the entries of a session verified against their chained hashes,
 * from the newest one the last intact check covered (the session's verified-up-to mark; the first check covers
 * them all), or every entry with --full, with progress on stderr for long sessions. `--since-last` is the
 * default, still accepted.
 */
export const sessionsCheckCommand: SessionsCommand = {
  opens: 'sessions',
  words: ['sessions', 'check'],
  args: ['SESSION_ID'],
  options: ['full', 'since-last'],
  summary:
    'Verify the entries of a conversation added since the last intact check (every entry with --full) against their hashes; exit 2 naming each entry changed outside Amber.',
  run(core, [sessionId], flags) {
    if (flags.full && flags.sinceLast) throw new AmberError('invalid_input', 'Pass --full or --since-last, not both: --full checks every entry.');
    const onProgress = (done: number, total: number) => flags.progress(`Checked ${count(done)} of ${count(total)} entries…`);
    const result = core.sessions.check(sessionId!, { sinceLast: !flags.full, onProgress });
    if (result.ok) {
      const which = !result.sinceLast
        ? `all ${count(result.entries)} entries match their hashes`
        : result.entries === 0
          ? 'no entry was added since the last check (--full checks them all again)'
          : `the ${count(result.entries)} entries added since the last check match their hashes`;
      return { json: result, text: `Conversation ${sessionId} is intact: ${which}.` };
    }
    const n = result.changed.length;
    const of = result.sinceLast ? `the ${count(result.entries)} entries added since the last check` : `its ${count(result.entries)} entries`;
    return {
      json: result,
      text: [
        `Conversation ${sessionId} was changed outside Amber: ${count(n)} of ${of} no longer match their hashes, so Amber opens it read-only.`,
        ...result.changed.map((id) => `changed: ${id}`),
      ].join('\n'),
      exitCode: CHANGED_EXIT_CODE,
    };
  },
};
