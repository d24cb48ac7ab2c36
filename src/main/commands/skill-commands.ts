import { relative } from 'node:path';
import { type Disposable, DisposableStore } from '../../shared/disposable.ts';
import type { AppCore } from '../app-core.ts';
import { AmberError } from '../errors.ts';
import type { PendingSkill, Skill, SkillScan } from '../skills/index.ts';
import type { CommandContext, CommandTree } from './command-tree.ts';

const SOURCE_NAMES = { user: 'yours', workspace: 'this workspace' } as const;

/**
 * `/skills`: the skills the model may load, where each comes from, the workspace's skills waiting for a
 * confirmation and the ones refused; `/skills confirm NAME|all` confirms waiting ones; `/skills on|off NAME` switches one.
 */
export function skillCommands(app: AppCore, tree: CommandTree): Disposable {
  const store = new DisposableStore();
  const workspaceOf = (context: CommandContext): string | undefined => (context.sessionId ? (app.workspaces.of(context.sessionId) ?? undefined) : undefined);

  // A feed is synchronous and has no conversation: it offers what the last /skills found waiting.
  let waiting: readonly PendingSkill[] = [];
  store.add(
    tree.registerFeed('pending-skills', () => [
      ...waiting.map((p) => ({ name: p.skill.name, help: p.skill.description })),
      { name: 'all', help: 'Every skill of this workspace waiting for a confirmation' },
    ]),
  );
  store.add(
    tree.registerAction('skills.list', async (_argument, context) => {
      const root = workspaceOf(context);
      const scan = await app.skills.scan(root);
      waiting = scan.pending;
      return describeSkills(scan, root, app.dataDir);
    }),
  );
  store.add(
    tree.registerAction('skills.confirm', async (argument, context) => {
      const root = workspaceOf(context);
      if (!root) throw new AmberError('invalid_input', 'Open a conversation with a workspace folder first: its skills are the ones to confirm.');
      const name = argument.trim();
      if (!name) throw new AmberError('invalid_input', 'Name the skill to confirm: /skills confirm <name>, or /skills confirm all.');
      const confirmed = await app.skills.confirm(root, name);
      waiting = waiting.filter((p) => !confirmed.includes(p.skill.name));
      if (confirmed.length === 0) return 'No skill of this workspace waits for a confirmation.';
      const one = confirmed.length === 1;
      return `Confirmed ${confirmed.join(', ')}: the model may now load ${one ? 'it' : 'them'}. A later change to ${one ? 'it' : 'them'} asks again.`;
    }),
  );
  for (const enabled of [true, false])
    store.add(
      tree.registerAction(enabled ? 'skills.on' : 'skills.off', (argument) => {
        const name = argument.trim();
        if (!name) throw new AmberError('invalid_input', `Name the skill to switch ${enabled ? 'on' : 'off'}: /skills ${enabled ? 'on' : 'off'} <name>.`);
        app.skills.setEnabled(name, enabled);
        return enabled
          ? `Switched ${name} on: the model may load it again.`
          : `Switched ${name} off: it is no longer listed in the system prompt or loaded. /skills on ${name} switches it back on.`;
      }),
    );
  return store;
}

/** Where a skill lives: a workspace's named from the workspace folder, yours from your Amber folder (unless a link puts it elsewhere). */
function where(s: Skill, places: Places): string {
  const from = s.source === 'workspace' ? places.root : places.dataDir;
  const inside = from ? relative(from, s.dir) : null;
  return `${SOURCE_NAMES[s.source]}, ${inside && !inside.startsWith('..') ? inside : s.dir}`;
}

interface Places {
  root: string | undefined;
  dataDir: string | undefined;
}

const line = (s: Skill, places: Places): string => `• ${s.name} (${where(s, places)}) — ${s.description}`;

/** The text `/skills` prints. */
export function describeSkills(scan: SkillScan, root: string | undefined, dataDir?: string): string {
  const places = { root, dataDir };
  const out: string[] = [];
  if (scan.skills.length === 0)
    out.push('No skill is available: put a folder with a SKILL.md in your Amber folder’s skills/ or the workspace’s .amber/skills/.');
  else {
    out.push('Skills the model may load (a workspace’s replaces yours of the same name):');
    for (const s of scan.skills) out.push(`${line(s, places)} ${s.enabled ? 'On.' : `Off (/skills on ${s.name}).`}`);
  }
  if (scan.pending.length > 0) {
    out.push('', 'Waiting for your confirmation (they come with the workspace’s repository; not offered until confirmed):');
    for (const p of scan.pending) out.push(line(p.skill, places) + (p.changed ? ' Changed since you confirmed it.' : ''));
    out.push(`Confirm one with /skills confirm ${scan.pending[0]!.skill.name}, or every one with /skills confirm all.`);
  }
  if (scan.problems.length > 0) {
    out.push('', 'Refused:');
    for (const p of scan.problems) out.push(`• ${p}`);
  }
  return out.join('\n');
}
