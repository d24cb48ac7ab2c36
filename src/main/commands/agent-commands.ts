import { relative } from 'node:path';
import type { AgentDefinition, AgentScan, PendingAgent } from '../agent-definitions/index.ts';
import { type Disposable, DisposableStore } from '../../shared/disposable.ts';
import type { AppCore } from '../app-core.ts';
import { AmberError } from '../errors.ts';
import type { CommandContext, CommandTree } from './command-tree.ts';

const SOURCE_NAMES = { builtin: 'built-in', user: 'yours', workspace: 'this workspace' } as const;

/**
 * `/agents`: the agents the task tool can start, where each comes from, what replaced what, the workspace's
 * agents waiting for a confirmation and the files skipped; `/agents confirm NAME|all` confirms waiting ones.
 */
export function agentCommands(app: AppCore, tree: CommandTree): Disposable {
  const store = new DisposableStore();
  const workspaceOf = (context: CommandContext): string | undefined => (context.sessionId ? (app.workspaces.of(context.sessionId) ?? undefined) : undefined);

  // The waiting agents complete `/agents confirm`. A feed is synchronous and has no conversation, so it offers
  // what the last /agents found in the open conversation's workspace.
  let waiting: readonly PendingAgent[] = [];
  store.add(
    tree.registerFeed('pending-agents', () => [
      ...waiting.map((p) => ({ name: p.definition.name, help: p.definition.description })),
      { name: 'all', help: 'Every agent of this workspace waiting for a confirmation' },
    ]),
  );
  store.add(
    tree.registerAction('agents.list', async (_argument, context) => {
      const root = workspaceOf(context);
      const scan = await app.agentDefinitions.scan(root);
      waiting = scan.pending;
      return describeAgents(scan, root);
    }),
  );
  store.add(
    tree.registerAction('agents.confirm', async (argument, context) => {
      const root = workspaceOf(context);
      if (!root) throw new AmberError('invalid_input', 'Open a conversation with a workspace folder first: its agents are the ones to confirm.');
      const name = argument.trim();
      if (!name) throw new AmberError('invalid_input', 'Name the agent to confirm: /agents confirm <name>, or /agents confirm all.');
      const confirmed = await app.agentDefinitions.confirm(root, name);
      waiting = waiting.filter((p) => !confirmed.includes(p.definition.name));
      if (confirmed.length === 0) return 'No agent of this workspace waits for a confirmation.';
      const one = confirmed.length === 1;
      return `Confirmed ${confirmed.join(', ')}: the task tool may now hand work to ${one ? 'it' : 'them'}. A later change to ${one ? 'its file' : 'their files'} asks again.`;
    }),
  );
  return store;
}

function tools(d: AgentDefinition): string {
  return d.tools === undefined ? 'every tool the conversation may use' : d.tools.length === 0 ? 'no tools' : d.tools.join(', ');
}

function where(d: AgentDefinition, root: string | undefined): string {
  if (d.source === 'builtin') return 'built-in';
  // A workspace's file is named from the workspace folder (unless a link puts the folder's real path elsewhere).
  const inside = d.path && root && d.source === 'workspace' ? relative(root, d.path) : null;
  return `${SOURCE_NAMES[d.source]}, ${inside && !inside.startsWith('..') ? inside : d.path}`;
}

function line(d: AgentDefinition, root: string | undefined): string {
  const model = d.model ? `; model ${d.model.provider}/${d.model.id}` : '';
  const turns = d.maxIterations !== undefined ? `; at most ${d.maxIterations} turns` : '';
  return `• ${d.name} (${where(d, root)}) — ${d.description} Tools: ${tools(d)}; ${d.mayWrite ? 'may write' : 'read-only'}${model}${turns}.`;
}

/** The text `/agents` prints. */
export function describeAgents(scan: AgentScan, root: string | undefined): string {
  const out = ['Agents the task tool can start (a workspace’s replaces yours of the same name; yours replace a built-in):'];
  for (const d of scan.definitions) {
    const replaced = scan.overridden.filter((o) => o.name === d.name).map((o) => (o.source === 'builtin' ? 'the built-in one' : `${SOURCE_NAMES[o.source]}`));
    out.push(line(d, root) + (replaced.length > 0 ? ` Replaces ${replaced.join(' and ')}.` : ''));
  }
  if (scan.pending.length > 0) {
    out.push('', 'Waiting for your confirmation (they come with the workspace’s repository):');
    for (const p of scan.pending) out.push(line(p.definition, root) + (p.changed ? ' Changed since you confirmed it.' : ''));
    const first = scan.pending[0]!.definition.name;
    out.push(`Confirm one with /agents confirm ${first}, or every one with /agents confirm all.`);
  }
  if (scan.problems.length > 0) {
    out.push('', 'Skipped:');
    for (const p of scan.problems) out.push(`• ${p}`);
  }
  return out.join('\n');
}
