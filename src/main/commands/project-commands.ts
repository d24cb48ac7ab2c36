import { type Disposable, DisposableStore } from '../../shared/disposable.ts';
import type { Project } from '../../shared/projects/index.ts';
import type { AppCore } from '../app-core.ts';
import { AmberError } from '../errors.ts';
import { newProjectConversation } from '../projects/index.ts';
import type { CommandContext, CommandTree } from './command-tree.ts';

/** The window switches to a conversation a command started (as /new does). */
type OpeningContext = CommandContext & { openSession?(sessionId: string): void };

/**
 * `/project`: the projects and the one this conversation is in; `/project new NAME` makes this conversation's
 * folder a project; `/project start NAME` starts a conversation in one; `/project instructions TEXT` sets the
 * instructions of this conversation's project; `/project remove NAME`.
 */
export function projectCommands(app: AppCore, tree: CommandTree): Disposable {
  const store = new DisposableStore();
  const folderOf = (context: CommandContext): string | null => (context.sessionId ? app.workspaces.of(context.sessionId) : null);
  const named = (argument: string, verb: string): Project => {
    const name = argument.trim();
    if (!name) throw new AmberError('invalid_input', `Name the project to ${verb}: /project ${verb} <name>.`);
    const project = app.projects.find(name);
    if (!project) throw new AmberError('not_found', `There is no project "${name}". /project lists them.`);
    return project;
  };
  store.add(tree.registerFeed('projects', () => app.projects.list().map((p) => ({ name: p.name, help: p.folder }))));
  store.add(
    tree.registerAction('projects.list', (_argument, context) => {
      const projects = app.projects.list();
      const current = app.projects.ofFolder(folderOf(context));
      if (projects.length === 0) return 'No project yet. /project new <name> makes this conversation’s folder one (also Settings → Projects).';
      const lines = projects.map((p) => `• ${p.name} — ${p.folder}${describeDefaults(p)}${p.id === current?.id ? ' (this conversation)' : ''}`);
      return `${lines.join('\n')}\n${current ? `This conversation is in ${current.name}.` : 'This conversation is in no project.'}`;
    }),
  );
  store.add(
    tree.registerAction('projects.new', (argument, context) => {
      const name = argument.trim();
      if (!name) throw new AmberError('invalid_input', 'Name the project: /project new <name>. Its folder is this conversation’s.');
      const folder = folderOf(context);
      if (!folder) throw new AmberError('invalid_input', 'This conversation has no folder yet: choose one with /workspace, then make it a project.');
      const project = app.projects.create({ name, folder });
      return `Made ${folder} the project ${project.name}: its conversations are grouped under it. /project instructions <text> gives it instructions.`;
    }),
  );
  store.add(
    tree.registerAction('projects.start', (argument, context) => {
      const project = named(argument, 'start');
      const summary = newProjectConversation(app, project.id);
      (context as OpeningContext).openSession?.(summary.id);
      return `Started a conversation in ${project.name}.`;
    }),
  );
  store.add(
    tree.registerAction('projects.instructions', (argument, context) => {
      const project = app.projects.ofFolder(folderOf(context));
      if (!project) throw new AmberError('invalid_input', 'This conversation is in no project: /project new <name> makes its folder one.');
      const text = argument.trim();
      if (!text) return project.instructions ? `The instructions of ${project.name}: ${project.instructions}` : `${project.name} has no instructions.`;
      const cleared = text === 'clear';
      app.projects.update(project.id, { instructions: cleared ? '' : text });
      return cleared
        ? `${project.name} has no instructions any more.`
        : `From the next request on, every conversation in ${project.name} gets these instructions.`;
    }),
  );
  store.add(
    tree.registerAction('projects.remove', (argument) => {
      const project = named(argument, 'remove');
      app.projects.remove(project.id);
      return `Removed the project ${project.name}; its conversations stay, under No project.`;
    }),
  );
  return store;
}

function describeDefaults(p: Project): string {
  const parts = [
    p.model ? `model ${p.model.provider}/${p.model.modelId}` : null,
    p.thinkingLevel ? `thinking ${p.thinkingLevel}` : null,
    p.policyMode ? `policy ${p.policyMode}` : null,
    p.instructions ? 'with instructions' : null,
  ].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}
