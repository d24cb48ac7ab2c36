import { relative } from 'node:path';
import type { Disposable } from '../../shared/disposable.ts';
import type { SkillListing } from '../../shared/skills/index.ts';
import type { App } from '../app.ts';
import { AmberError } from '../errors.ts';
import type { Handlers } from './api-router.ts';

type SkillChannels = 'skills.list' | 'skills.setEnabled' | 'skills.confirm';

/** The skills over the API for Settings: yours and the open conversation's workspace's, with their state, the on/off switch and the confirmation. */
export function createSkillRoutes(app: App): Disposable & { handlers: Pick<Handlers, SkillChannels> } {
  const listing = async (sessionId: string | null | undefined): Promise<SkillListing> => {
    const root = sessionId ? (app.workspaces.of(sessionId) ?? undefined) : undefined;
    const scan = await app.skills.scan(root);
    const where = (source: 'user' | 'workspace', dir: string): string => {
      const inside = relative(source === 'workspace' && root ? root : app.dataDir, dir);
      return inside.startsWith('..') ? dir : inside;
    };
    return {
      skills: [
        ...scan.skills.map((s) => ({
          name: s.name,
          description: s.description,
          source: s.source,
          state: s.enabled ? ('on' as const) : ('off' as const),
          where: where(s.source, s.dir),
        })),
        ...scan.pending.map((p) => ({
          name: p.skill.name,
          description: p.skill.description,
          source: p.skill.source,
          state: p.changed ? ('changed' as const) : ('waiting' as const),
          where: where(p.skill.source, p.skill.dir),
        })),
      ],
      problems: scan.problems,
    };
  };
  return {
    handlers: {
      'skills.list': ({ sessionId }) => {
        if (sessionId) app.sessions.get(sessionId);
        return listing(sessionId);
      },
      'skills.setEnabled': ({ name, enabled, sessionId }) => {
        if (sessionId) app.sessions.get(sessionId);
        app.skills.setEnabled(name, enabled);
        return listing(sessionId);
      },
      'skills.confirm': async ({ name, sessionId }) => {
        app.sessions.get(sessionId);
        const root = app.workspaces.of(sessionId);
        if (!root) throw new AmberError('invalid_input', 'This conversation has no workspace folder, so it has no skills to confirm.');
        await app.skills.confirm(root, name);
        return listing(sessionId);
      },
    },
    dispose: () => {},
  };
}
