import type { CliCommand } from './cli-command.ts';

/** Exit code of `sessions check` when entries were changed outside Amber (1 stays for errors). */
export const CHANGED_EXIT_CODE = 2;

/** `amber sessions check SESSION_ID`: every entry of a session verified against its chained hash. */
export const sessionsCheckCommand: CliCommand = {
  words: ['sessions', 'check'],
  args: ['SESSION_ID'],
  summary: 'Verify every entry of a conversation against its hash; exit 2 naming each entry changed outside Amber.',
  run(app, [sessionId]) {
    const result = app.sessions.check(sessionId!);
    if (result.ok) {
      return { json: result, text: `Session ${sessionId} is intact: all ${result.entries} entries match their hashes.` };
    }
    const n = result.changed.length;
    return {
      json: result,
      text: [
        `Session ${sessionId} was changed outside Amber: ${n} of its ${result.entries} entries no longer match their hashes, so Amber opens it read-only.`,
        ...result.changed.map((id) => `changed: ${id}`),
      ].join('\n'),
      exitCode: CHANGED_EXIT_CODE,
    };
  },
};
