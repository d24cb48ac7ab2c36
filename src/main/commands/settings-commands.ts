import { thinkingLevelOf } from '../../shared/agent/index.ts';
import { type Disposable, DisposableStore } from '../../shared/disposable.ts';
import { parseSettingInput, resolveSettingName, SETTINGS_INDEX, settingInputHints, type SettingIndexEntry } from '../../shared/settings/index.ts';
import type { AppCore } from '../app-core.ts';
import { AmberError } from '../errors.ts';
import type { CommandContext, CommandTree, FeedItem } from './command-tree.ts';
import { PLUGIN_SETTING_PREFIX, pluginSetting, pluginSettingAlias, pluginSettingItems } from './plugin-settings-command.ts';

/** What `/set` answers without an argument. */
const USAGE =
  'Name a setting and its value: /set policy.mode write, /set agent.instructions TEXT, /set plugin.<id>.<key> VALUE (Tab completes the names and values; /get lists them), /set policy read|write|yolo, or /set plugin on|off <id>.';

/** The longest setting name repeated back in an answer. */
const NAME_SHOWN = 60;

/**
 * `/get [NAME]` and `/set NAME [VALUE]` over one index: the core settings (SETTINGS_INDEX, from the table in
 * shared) and every plugin's own settings (`plugin.<id>.<key>`). Both complete from the feed `settings`:
 * the names, then each one's choices, range ends or models. A value is checked before anything is stored:
 * an unknown name, a wrong type, a value out of range or too long is a sentence saying what to type, and
 * nothing changes. Core values are written through their owners (policy, sandbox, instructions,
 * workspace), and the conversation's model and thinking level through /model and /thinking.
 */
export function settingsCommands(app: AppCore, tree: CommandTree): Disposable {
  const store = new DisposableStore();

  store.add(
    tree.registerFeed(
      'settings',
      () => [
        ...SETTINGS_INDEX.map((entry): FeedItem => {
          const values = entry.input.kind === 'model' ? modelItems(app) : settingInputHints(entry).map((h) => ({ name: h.value, help: h.help }));
          return {
            name: entry.name,
            help: `${entry.help}${entry.scope === 'conversation' ? ' (this conversation)' : ''}`,
            ...(values.length > 0 ? { values } : {}),
          };
        }),
        ...pluginSettingItems(app),
      ],
      { separator: '.' },
    ),
  );

  store.add(
    tree.registerAction('settings.get', (argument, context) => {
      const name = argument.trim();
      if (name === '') return SETTINGS_INDEX.map((entry) => `${entry.name}: ${describe(app, entry, context)}`).join('\n');
      if (/\s/.test(name)) throw new AmberError('invalid_input', `/get takes one setting name; to change it, type /set ${shown(name.split(/\s+/)[0]!)} VALUE.`);
      if (name.startsWith(PLUGIN_SETTING_PREFIX)) return pluginSetting(app, name, undefined);
      const alias = resolveSettingName(name).entry ? null : pluginSettingAlias(app, name);
      if (alias) return pluginSetting(app, alias, undefined);
      const entry = resolved(name);
      return `${entry.name} is ${describe(app, entry, context)}.`;
    }),
  );

  store.add(
    tree.registerAction('settings.set', async (argument, context) => {
      const match = /^(\S+)(?:\s+([\s\S]*))?$/.exec(argument.trim());
      if (!match) return USAGE;
      const [, name, text] = match as unknown as [string, string, string | undefined];
      if (name.startsWith(PLUGIN_SETTING_PREFIX)) return pluginSetting(app, name, text);
      // A plugin's setting may be named without `plugin.` (`/set memory.mode auto`) when no core setting has the name.
      const alias = resolveSettingName(name).entry ? null : pluginSettingAlias(app, name);
      if (alias) return pluginSetting(app, alias, text);
      const entry = resolved(name);
      if (text === undefined || text.trim() === '') return `${entry.name} is ${describe(app, entry, context)}.`;
      return setCore(app, tree, entry, text, context);
    }),
  );

  return store;
}

/** The index entry a typed name means (whole, or the unique end of one); else a sentence saying what to type. */
function resolved(name: string): SettingIndexEntry {
  const { entry, candidates } = resolveSettingName(name);
  if (entry) return entry;
  if (candidates) throw new AmberError('invalid_input', `${shown(name)} could be ${candidates.join(' or ')}: type the whole name.`);
  return unknownName(name);
}

function unknownName(name: string): never {
  throw new AmberError('invalid_input', `There is no setting ${shown(name)}: Tab completes the setting names, and /get alone lists them with their values.`);
}

function shown(name: string): string {
  return name.length > NAME_SHOWN ? `“${name.slice(0, NAME_SHOWN)}…”` : `“${name}”`;
}

function conversation(entry: SettingIndexEntry, context: CommandContext): string {
  if (!context.sessionId) throw new AmberError('invalid_input', `${entry.name} belongs to a conversation: open one first.`);
  return context.sessionId;
}

/** A setting's value as the user reads it, with "the default" where nothing is stored. */
function describe(app: AppCore, entry: SettingIndexEntry, context: CommandContext): string {
  if (entry.scope === 'conversation' && !context.sessionId) return 'kept per conversation (open one to see it)';
  const sessionId = context.sessionId ?? '';
  switch (entry.name) {
    case 'policy.mode':
      return defaulted(app.settings.find('policy.mode', sessionId), app.policy.mode(sessionId));
    case 'policy.approvalTimeoutSeconds': {
      const seconds = app.policy.approvalTimeout();
      return seconds === null ? 'none: a question waits until it is answered' : `${seconds.toLocaleString('en')} seconds`;
    }
    case 'sandbox.network':
      return defaulted(app.settings.find('sandbox.network'), app.sandbox.network() ? 'on' : 'off');
    case 'sandbox.network.conversation': {
      const own = app.sandbox.sessionNetwork(sessionId);
      return own === null ? `default (follows sandbox.network, now ${app.sandbox.network() ? 'on' : 'off'})` : own ? 'on' : 'off';
    }
    case 'conversations.autoTitle':
      return defaulted(app.settings.find('conversations.autoTitle'), app.settings.get('conversations.autoTitle') ? 'on' : 'off');
    case 'context.maskAfterTokens':
    case 'context.maskBatchTokens':
      return defaulted(app.settings.find(entry.name), `${app.settings.get(entry.name).toLocaleString('en')} tokens`);
    case 'agent.instructions':
      return quoted(app.systemPrompt.instructions(null).global);
    case 'agent.instructions.conversation':
      return quoted(app.systemPrompt.instructions(sessionId).conversation);
    case 'model': {
      const model = app.sessions.branchState(sessionId).model;
      const current = model ?? app.defaultModel();
      return current ? `${current.provider}/${current.modelId}${model ? '' : ' (the default)'}` : 'not chosen yet';
    }
    case 'thinking':
      return thinkingLevelOf(app.sessions.branchState(sessionId).thinkingLevel);
    case 'workspace':
      return app.workspaces.of(sessionId) ?? 'not chosen yet';
    default:
      return 'not readable here';
  }
}

function defaulted(stored: unknown, text: string): string {
  return stored === undefined ? `${text} (the default)` : text;
}

function quoted(text: string): string {
  if (text === '') return 'empty';
  return text.length > 200 ? `“${text.slice(0, 200)}…” (${text.length.toLocaleString('en')} characters)` : `“${text}”`;
}

/** Checks the text, then writes through the setting's owner; nothing is stored when the text is refused. */
async function setCore(app: AppCore, tree: CommandTree, entry: SettingIndexEntry, text: string, context: CommandContext): Promise<string> {
  const parsed = parseSettingInput(entry, text);
  if (!parsed.ok) throw new AmberError('invalid_input', parsed.problem);
  const value = parsed.value;
  const sessionId = entry.scope === 'conversation' ? conversation(entry, context) : null;
  switch (entry.name) {
    case 'policy.mode':
      // The same answer as /set policy <mode>, which says what yolo still asks.
      return await viaCommand(tree, `/set policy ${String(value)}`, context);
    case 'policy.approvalTimeoutSeconds':
      app.policy.setApprovalTimeout(value as number | null);
      return value === null ? 'A question now waits until it is answered.' : `A question now waits ${value.toLocaleString('en')} seconds, then is denied.`;
    case 'sandbox.network':
      app.sandbox.setNetwork(value as boolean);
      return `Shell commands in write mode ${value ? 'may now use' : 'now have no'} network, where a conversation does not choose otherwise.`;
    case 'sandbox.network.conversation':
      app.sandbox.setSessionNetwork(sessionId!, value as boolean | null);
      return value === null
        ? 'This conversation follows sandbox.network again.'
        : `Shell commands in write mode ${value ? 'may now use' : 'now have no'} network in this conversation.`;
    case 'agent.instructions':
      app.systemPrompt.setInstructions(null, (value as string | null) ?? '');
      return value === null
        ? 'There are no instructions for every conversation any more.'
        : 'From the next request on, every conversation gets these instructions.';
    case 'agent.instructions.conversation':
      app.systemPrompt.setInstructions(sessionId, (value as string | null) ?? '');
      return value === null
        ? 'This conversation has no instructions of its own any more.'
        : 'From the next request on, the model gets your instructions for this conversation.';
    case 'conversations.autoTitle':
      app.settings.set('conversations.autoTitle', value as boolean);
      return value
        ? 'New conversations get a short title from their model after the first reply (a name you give stays).'
        : 'Conversations keep no generated title any more: they are named after their first message until you rename them.';
    case 'agent.todo':
      app.settings.set('agent.todo', value as boolean);
      return value
        ? 'The agent may now keep a plan with the todo tool; it shows above the message box.'
        : 'The todo tool is off: the agent keeps no plan (the plans kept so far stay on their branches).';
    case 'context.maskAfterTokens':
      app.settings.set('context.maskAfterTokens', value as number);
      return value === 0
        ? 'From the next request on, old tool output is sent whole again.'
        : `From the next request on, tool output older than the newest ${(value as number).toLocaleString('en')} tokens is hidden from the model (the conversation keeps it).`;
    case 'context.maskBatchTokens':
      app.settings.set('context.maskBatchTokens', value as number);
      return `Hidden tool output now grows ${(value as number).toLocaleString('en')} tokens at a time.`;
    case 'model':
      return await viaCommand(tree, `/model ${String(value)}`, context);
    case 'thinking':
      return await viaCommand(tree, `/thinking ${String(value)}`, context);
    case 'workspace': {
      const summary = app.workspaces.set(sessionId!, String(value));
      return `This conversation now works in ${summary.cwd}.`;
    }
    default:
      throw new AmberError('invalid_input', `${entry.name} cannot be set from the command line.`);
  }
}

/** Runs the command that owns a setting (its checks, its answer); its error is this command's error. */
async function viaCommand(tree: CommandTree, line: string, context: CommandContext): Promise<string> {
  const result = await tree.run(line, context);
  if (result.kind === 'error') throw new AmberError('invalid_input', result.text.replace(/^\/[^:]*: /, ''));
  return result.text;
}

function modelItems(app: AppCore): FeedItem[] {
  return app.plugins.registries.providers.list().flatMap((p) => p.models.map((m) => ({ name: `${p.id}/${m.id}`, help: m.name ?? `${m.id} (${p.id})` })));
}
