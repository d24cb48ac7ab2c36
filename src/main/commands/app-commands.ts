import { PolicyMode, ThinkingLevel, thinkingLevelOf } from '../../shared/agent/index.ts';
import { modelFacts } from '../../shared/api/index.ts';
import { assertIdle, checkModelChoice, checkThinkingLevel } from '../agent/index.ts';
import { type Disposable, DisposableStore, toDisposable } from '../../shared/disposable.ts';
import type { AppCore } from '../app-core.ts';
import { AmberError } from '../errors.ts';
import type { CommandContext } from './command-tree.ts';
import { CommandTree } from './command-tree.ts';
import { settingsCommands } from './settings-commands.ts';
import { sandboxCommands } from './sandbox-commands.ts';
import { agentCommands } from './agent-commands.ts';
import { skillCommands } from './skill-commands.ts';
import { projectCommands } from './project-commands.ts';
import { joinProject, newConversation } from '../projects/index.ts';
import { planCommands } from './plan-commands.ts';

/** What a command run may ask of the window besides its status line text. */
export interface AppCommandContext extends CommandContext {
  /** The window should switch to this session (/new). */
  openSession?(sessionId: string): void;
}

export interface AppCommandHooks {
  /** Summarises a session's older messages now; absent: /compact says it is not available. */
  compact?(sessionId: string): Promise<string>;
}

export interface AppCommands extends Disposable {
  readonly tree: CommandTree;
}

/**
 * The app's command tree: the built-in JSON tree with its actions bound to the core (sessions, agent,
 * policy, plugins), the models and plugins feeds, and every plugin's commands bridged in live — added
 * when a plugin's command is installed, removed when it is unwound.
 */
export function createAppCommands(app: AppCore, hooks: AppCommandHooks = {}): AppCommands {
  const tree = new CommandTree();
  const store = new DisposableStore();
  const { sessions, plugins } = app;

  const idle = (sessionId: string, doing: string): void => assertIdle(app.agent, sessionId, doing);

  store.add(
    tree.registerAction('session.new', (title, context) => {
      // In a project's folder, the new conversation takes the project's defaults.
      const summary = newConversation(app, { title: title || undefined, cwd: app.workspaces.forNewConversation(null) });
      (context as AppCommandContext).openSession?.(summary.id);
      return title ? `Started “${title}”.` : 'Started a new conversation.';
    }),
  );

  store.add(
    tree.registerAction('session.workspace', (argument, context) => {
      const sessionId = session(context);
      if (!argument) {
        const current = app.workspaces.of(sessionId);
        return current
          ? `This conversation works in ${current}. Type /workspace and a folder to change it.`
          : 'This conversation has no workspace folder yet. Type /workspace and a folder.';
      }
      app.workspaces.set(sessionId, argument);
      const summary = joinProject(app, sessionId);
      const project = app.projects.ofFolder(summary.cwd);
      return `This conversation now works in ${summary.cwd}${project ? `, in the project ${project.name}` : ''}.`;
    }),
  );

  store.add(
    tree.registerAction('session.thinking', (argument, context) => {
      const sessionId = session(context);
      const current = thinkingLevelOf(sessions.branchState(sessionId).thinkingLevel);
      if (!argument) return `Thinking is ${current}. Type /thinking off, low, medium or high to change it.`;
      const level = checkThinkingLevel(argument);
      if (level === current) return `Thinking is already ${current}.`;
      idle(sessionId, 'change the thinking level');
      app.agent.setThinkingLevel(sessionId, level);
      return `Thinking is now ${level}; the next reply uses it.`;
    }),
  );
  store.add(
    tree.registerFeed('thinking-levels', () =>
      ThinkingLevel.options.map((name) => ({
        name,
        help: name === 'off' ? 'No extra thinking' : `Think ${name === 'low' ? 'a little' : name === 'medium' ? 'some' : 'hard'}`,
      })),
    ),
  );

  store.add(
    tree.registerAction('session.system', (argument, context) => {
      const sessionId = session(context);
      if (!argument) {
        const current = app.systemPrompt.instructions(sessionId).conversation;
        return current
          ? `Your instructions for this conversation: ${current}`
          : 'This conversation has no instructions of its own. Type /system and the text to add some.';
      }
      if (argument.trim() === 'clear') {
        app.systemPrompt.setInstructions(sessionId, '');
        return 'This conversation has no instructions of its own any more.';
      }
      app.systemPrompt.setInstructions(sessionId, argument);
      return 'From the next request on, the model gets your instructions for this conversation.';
    }),
  );

  store.add(
    tree.registerAction('session.model', (argument, context) => {
      const sessionId = session(context);
      const current = sessions.branchState(sessionId).model ?? app.defaultModel();
      if (!argument)
        return current
          ? `The model is ${current.provider}/${current.modelId}. Type /model and a name to change it.`
          : 'No model is chosen yet. Type /model and a name.';
      const ref = checkModelChoice(resolveModel(app, argument), app.plugins.registries.providers);
      idle(sessionId, 'switch models');
      app.agent.setModel(sessionId, ref);
      return `The model is now ${ref.provider}/${ref.modelId}; the next reply uses it.`;
    }),
  );

  store.add(
    tree.registerAction('session.branch', (entryId, context) => {
      const sessionId = session(context);
      if (!entryId) throw new AmberError('invalid_input', 'Name the entry to branch from: /branch <entry-id> (the tree view shows them).');
      idle(sessionId, 'switch branches');
      sessions.entry(sessionId, entryId);
      sessions.branch(sessionId, entryId);
      return `The next message forks from ${entryId}.`;
    }),
  );

  store.add(
    tree.registerAction('session.label', (label, context) => {
      const sessionId = session(context);
      idle(sessionId, 'change labels');
      const target = sessions.leaf(sessionId);
      if (!target) throw new AmberError('invalid_input', 'There is nothing to label yet: send a message first.');
      sessions.append(sessionId, label ? { type: 'label', targetId: target, label } : { type: 'label', targetId: target });
      return label ? `Labelled the latest message “${label}”.` : 'Cleared the label of the latest message.';
    }),
  );

  store.add(
    tree.registerAction('session.compact', async (_argument, context) => {
      const sessionId = session(context);
      idle(sessionId, 'summarise it');
      if (!hooks.compact)
        throw new AmberError('unavailable', 'Compacting by hand is not available yet; Amber compacts by itself when the context is nearly full.');
      return hooks.compact(sessionId);
    }),
  );

  for (const mode of PolicyMode.options) {
    store.add(
      tree.registerAction(`policy.${mode}`, (_argument, context) => {
        const sessionId = session(context);
        app.policy.setMode(sessionId, mode);
        // Yolo is not "anything goes": say at once what still asks.
        const still =
          mode === 'yolo'
            ? ' Changes to protected paths and destructive, unknown or outside-the-workspace shell lines still ask; the data folder stays off limits.'
            : '';
        return `Tool policy: ${mode} for this conversation.${still}`;
      }),
    );
  }

  for (const on of [true, false]) {
    store.add(
      tree.registerAction(on ? 'plugin.on' : 'plugin.off', async (id) => {
        if (!id) throw new AmberError('invalid_input', `Name the plugin: /set plugin ${on ? 'on' : 'off'} <plugin-id>.`);
        const info = await plugins.setState(id, on);
        if (on && info.state !== 'active' && info.state !== 'idle')
          throw new AmberError('unavailable', `${info.name} did not start: ${info.reason ?? info.state}`);
        return `${info.name} is ${on ? 'on' : 'off'}.`;
      }),
    );
  }

  store.add(
    tree.registerFeed('models', () =>
      // Every model of every account, with what the catalog knows of it beside its name.
      plugins.registries.providers.list().flatMap((p) =>
        p.models.map((m) => {
          const info = app.modelInfo({ provider: p.id, modelId: m.id });
          const facts = info
            ? modelFacts({
                contextWindow: info.contextWindow !== m.contextWindow ? info.contextWindow : null,
                price: info.priced !== false ? info.pricing : null,
                reasoning: info.reasoning,
                images: info.images ?? null,
              })
            : [];
          return { name: `${p.id}/${m.id}`, help: [info?.name ?? m.name ?? `${m.id} (${p.id})`, ...facts].join(' · ') };
        }),
      ),
    ),
  );
  store.add(tree.registerFeed('plugins', () => plugins.list().map((p) => ({ name: p.id, help: `${p.name} — ${p.enabled ? 'on' : 'off'}, ${p.state}` }))));

  store.add(settingsCommands(app, tree));
  store.add(sandboxCommands(app, tree));
  store.add(agentCommands(app, tree));
  store.add(skillCommands(app, tree));
  store.add(projectCommands(app, tree));
  store.add(planCommands(app, tree));
  store.add(bridgePluginCommands(app, tree));

  return { tree, dispose: () => store.dispose() };
}

function session(context: CommandContext): string {
  if (!context.sessionId) throw new AmberError('invalid_input', 'Open a conversation first.');
  return context.sessionId;
}

/**
 * `account/model` (the account by its id, or by its name in any case: `/model vLLM box/qwen3`), or a model
 * id that one active provider lists. The model part may hold slashes itself (`openrouter/openai/gpt-4o`).
 */
function resolveModel(app: AppCore, argument: string): { provider: string; modelId: string } {
  const providers = app.plugins.registries.providers.list();
  const slash = argument.indexOf('/');
  if (slash > 0) {
    const typed = argument.slice(0, slash).trim();
    const modelId = argument.slice(slash + 1).trim();
    if (!modelId) throw new AmberError('invalid_input', 'Name the model after the slash: /model provider/model.');
    const byName = app.providers.list().find((a) => a.name.toLowerCase() === typed.toLowerCase());
    const provider = providers.some((p) => p.id === typed) || !byName ? typed : byName.id;
    return { provider, modelId };
  }
  const matches = providers.filter((p) => p.models.some((m) => m.id === argument));
  if (matches.length === 1) return { provider: matches[0]!.id, modelId: argument };
  if (matches.length > 1)
    throw new AmberError('invalid_input', `Several providers offer ${argument} (${matches.map((p) => p.id).join(', ')}); write it as provider/model.`);
  const current = app.defaultModel();
  if (current) return { provider: current.provider, modelId: argument };
  throw new AmberError('not_found', `No active provider lists ${argument}; write it as provider/model.`);
}

/** Mirrors the plugins' command registry into the tree, live. A plugin command that clashes is left out. */
function bridgePluginCommands(app: AppCore, tree: CommandTree): Disposable {
  const registry = app.plugins.registries.commands;
  const bridged = new Map<string, { held: unknown; registration: Disposable }>();
  const sync = () => {
    for (const [key, b] of bridged) {
      if (registry.get(key) !== b.held) {
        b.registration.dispose();
        bridged.delete(key);
      }
    }
    for (const entry of registry.entries()) {
      if (bridged.has(entry.key)) continue;
      const path = entry.value.path;
      try {
        const registration = tree.registerCommand({
          path,
          help: entry.value.help,
          ...(entry.value.man !== undefined ? { man: entry.value.man } : {}),
          argument: true,
          // Main may complete a plugin command's argument with a feed of this name (the MCP servers).
          feed: `command:${path.join(' ')}`,
          source: `plugin:${entry.pluginId}`,
          handler: async (argument) => {
            const result = await registry.run(path, argument ? argument.split(/\s+/) : []);
            if (result.isError) throw new Error(result.output);
            return result.output;
          },
        });
        bridged.set(entry.key, { held: entry, registration });
      } catch {
        // A name a built-in command holds, or a path without its parent: the plugin's command is not offered.
      }
    }
  };
  sync();
  const listening = registry.onDidChange(sync);
  return toDisposable(() => {
    listening.dispose();
    for (const b of bridged.values()) b.registration.dispose();
    bridged.clear();
  });
}
