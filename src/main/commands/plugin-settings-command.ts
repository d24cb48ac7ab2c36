import { type ConfigSetting, configFields, parseSettingText } from '../../shared/plugins/index.ts';
import type { AppCore } from '../app-core.ts';
import { AmberError } from '../errors.ts';
import type { FeedItem } from './command-tree.ts';

/** Plugin settings are named `plugin.<id>.<key>`. */
export const PLUGIN_SETTING_PREFIX = 'plugin.';

/**
 * The settings every plugin's manifest declares, as completion items: their keys, with the choices of
 * those that have them (enums, booleans) as values to complete.
 */
export function pluginSettingItems(app: AppCore): FeedItem[] {
  const { plugins } = app;
  return plugins.list().flatMap((p) => {
    const schema = plugins.configuration(p.id);
    if (!schema) return [];
    return configFields(schema).map((f): FeedItem => {
      const values = choices(f.setting);
      return { name: `${PLUGIN_SETTING_PREFIX}${p.id}.${f.key}`, help: `${p.name}: ${f.setting.title ?? f.key}`, ...(values ? { values } : {}) };
    });
  });
}

/**
 * `/set plugin.<id>.<key> [VALUE]`: a plugin's setting set from the command line through the same checks as
 * the Settings form; without a value, what it holds (a secret only as set or not set).
 */
export async function pluginSetting(app: AppCore, name: string, text: string | undefined): Promise<string> {
  const { plugins } = app;
  const rest = name.startsWith(PLUGIN_SETTING_PREFIX) ? name.slice(PLUGIN_SETTING_PREFIX.length) : null;
  const dot = rest?.indexOf('.') ?? -1;
  if (rest === null || dot <= 0)
    throw new AmberError('invalid_input', `“${name}” is not a setting: plugin settings are written plugin.<id>.<key> (Tab completes them).`);
  const id = rest.slice(0, dot);
  const key = rest.slice(dot + 1);
  const info = plugins.get(id);
  const state = app.pluginConfig.get(id);
  const field = configFields(state.schema).find((f) => f.key === key);
  if (!field) throw new AmberError('invalid_input', `${info.name} has no setting '${key}' (Tab completes its settings).`);
  const secret = field.setting.type === 'string' && field.setting.secret === true;
  if (text === undefined || text.trim() === '') {
    if (secret) return `${info.name}: ${key} is ${state.secrets[key] ? 'set' : 'not set'} (secret; never shown).`;
    const value = state.values[key] ?? field.setting.default;
    return `${info.name}: ${key} is ${value === undefined ? 'not set' : JSON.stringify(value)}${key in state.values ? '' : value === undefined ? '' : ' (the default)'}.`;
  }
  const parsed = parseSettingText(field.setting, text);
  if (!parsed.ok) throw new AmberError('invalid_input', `The setting '${key}' ${parsed.problem}.`);
  await app.pluginConfig.set(id, { [key]: parsed.value });
  return secret ? `${info.name}: ${key} is set.` : `${info.name}: ${key} is now ${JSON.stringify(parsed.value)}.`;
}

/**
 * `<id>.<key>` for a plugin's setting without the `plugin.` prefix (`/set memory.mode auto`): the full name
 * when a plugin of that id declares that key, else null. Core settings win: the caller asks only for names
 * that are none of theirs.
 */
export function pluginSettingAlias(app: AppCore, name: string): string | null {
  const dot = name.indexOf('.');
  if (dot <= 0) return null;
  const id = name.slice(0, dot);
  const key = name.slice(dot + 1);
  if (!app.plugins.list().some((p) => p.id === id)) return null;
  const schema = app.plugins.configuration(id);
  return schema && configFields(schema).some((f) => f.key === key) ? `${PLUGIN_SETTING_PREFIX}${name}` : null;
}

/** The values a setting can only take, to complete after its key. */
function choices(setting: ConfigSetting): FeedItem[] | undefined {
  if (setting.type === 'boolean')
    return [
      { name: 'true', help: 'on' },
      { name: 'false', help: 'off' },
    ];
  if (setting.type === 'string' && setting.enum) return setting.enum.map((value) => ({ name: value, help: setting.title ?? value }));
  return undefined;
}
