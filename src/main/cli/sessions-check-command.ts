import type { CliCommand } from './cli-command.ts';

/** Exit code of `sessions check` when entries were changed outside Amber (1 stays for errors). */
export const CHANGED_EXIT_CODE = 2;

/**
 * `amber sessions check SESSION_ID [--since-last]`: every entry of a session verified against its chained
 * hash (or only those newer than the last intact check), with progress on stderr for long sessions.
 */
export const sessionsCheckCommand: CliCommand = {
  words: ['sessions', 'check'],
  args: ['SESSION_ID'],
  options: ['since-last'],
  summary: 'Verify every entry of a conversation (or those since the last intact check) against its hash; exit 2 naming each entry changed outside Amber.',
  run(app, [sessionId], flags) {
    const onProgress = (done: number, total: number) => flags.progress(`Checked ${done.toLocaleString('en')} of ${total.toLocaleString('en')} entries…`);
    const result = app.sessions.check(sessionId!, { sinceLast: flags.sinceLast, onProgress });
    if (result.ok) {
      const which = !result.sinceLast
        ? `all ${result.entries} entries match their hashes`
        : result.entries === 0
          ? 'no entry was added since the last check'
          : `the ${result.entries} entries added since the last check match their hashes`;
      return { json: result, text: `Session ${sessionId} is intact: ${which}.` };
    }
    const n = result.changed.length;
    const of = result.sinceLast ? `the ${result.entries} entries added since the last check` : `its ${result.entries} entries`;
    return {
      json: result,
      text: [
        `Session ${sessionId} was changed outside Amber: ${n} of ${of} no longer match their hashes, so Amber opens it read-only.`,
        ...result.changed.map((id) => `changed: ${id}`),
      ].join('\n'),
      exitCode: CHANGED_EXIT_CODE,
    };
  },
};
