import type { SessionSummary } from '../../shared/sessions/index.ts';
import type { SessionsCommand } from './cli-command.ts';

const PAGE = 1000;

function when(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')}Z`;
}

/** `amber sessions list`: every session, most recently updated first. */
export const sessionsListCommand: SessionsCommand = {
  opens: 'sessions',
  words: ['sessions', 'list'],
  args: [],
  summary: 'List the conversations, most recently updated first.',
  run(core) {
    const sessions: SessionSummary[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = core.sessions.list({ limit: PAGE, offset });
      sessions.push(...page);
      if (page.length < PAGE) break;
    }
    if (sessions.length === 0) return { json: { sessions }, text: `No conversations yet in ${core.dataDir}.` };
    const idWidth = Math.max(...sessions.map((s) => s.id.length), 2);
    const rows = sessions.map(
      (s) =>
        `${s.id.padEnd(idWidth)}  ${when(s.updatedAt)}  ${String(s.messageCount).padStart(8)}  ${(s.title || s.preview || '(untitled)').replace(/\s+/g, ' ')}`,
    );
    return { json: { sessions }, text: [`${'ID'.padEnd(idWidth)}  ${'UPDATED'.padEnd(17)}  MESSAGES  TITLE`, ...rows].join('\n') };
  },
};
