import type { SessionSummary } from '../../shared/sessions/index.ts';
import type { CliCommand } from './cli-command.ts';

const PAGE = 1000;

function when(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')}Z`;
}

/** `amber sessions list`: every session, most recently updated first. */
export const sessionsListCommand: CliCommand = {
  words: ['sessions', 'list'],
  args: [],
  summary: 'List the conversations, most recently updated first.',
  run(app) {
    const sessions: SessionSummary[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = app.sessions.list({ limit: PAGE, offset });
      sessions.push(...page);
      if (page.length < PAGE) break;
    }
    if (sessions.length === 0) return { json: { sessions }, text: `No conversations yet in ${app.dataDir}.` };
    const idWidth = Math.max(...sessions.map((s) => s.id.length), 2);
    const rows = sessions.map(
      (s) =>
        `${s.id.padEnd(idWidth)}  ${when(s.updatedAt)}  ${String(s.messageCount).padStart(8)}  ${(s.title || s.preview || '(untitled)').replace(/\s+/g, ' ')}`,
    );
    return { json: { sessions }, text: [`${'ID'.padEnd(idWidth)}  ${'UPDATED'.padEnd(17)}  MESSAGES  TITLE`, ...rows].join('\n') };
  },
};
