import { statSync } from 'node:fs';
import { isSecretHeader, McpServerConfig, type McpServerForm, mcpServerTarget } from '../../shared/api/index.ts';
import { AmberError } from '../errors.ts';

// Settings' Add server / Edit form and the stored server config (the mcpServers format), both ways. The
// form never carries a secret value back to the renderer: a secret variable or header comes out with
// value '' and `keep: true`, and going in, `keep` takes the stored value. A server never saved from the
// form (imported, or from before) has no marks: all its values count as secret.

type Pairs = Record<string, string>;
type Pair = { name: string; value: string; secret: boolean; keep: boolean };

export const stringRecord = (value: unknown): Pairs =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : {};

const marks = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : undefined);

/** The values a form's pairs stand for; a kept one takes the stored value, which must exist. */
function values(pairs: Pair[], stored: Pairs, what: string): Pairs {
  return Object.fromEntries(
    pairs.map((p) => {
      if (!p.keep) return [p.name, p.value];
      if (p.value !== '') throw new AmberError('invalid_input', `The ${what} ${p.name} is both kept and given a new value; send one or the other.`);
      const kept = stored[p.name];
      if (kept === undefined) throw new AmberError('invalid_input', `There is no stored value of the ${what} ${p.name} to keep; type its value again.`);
      return [p.name, kept];
    }),
  );
}

/** Which of the pairs are secret: marked so, or kept values that were secret (a kept secret cannot be unmarked into view). */
function secretNames(pairs: Pair[], before: string[] | undefined, always: (name: string) => boolean = () => false): string[] {
  const wasSecret = (name: string) => before === undefined || before.includes(name);
  return pairs.filter((p) => p.secret || always(p.name) || (p.keep && wasSecret(p.name))).map((p) => p.name);
}

/**
 * The stored config for a checked form; `before` is the server as stored, with its values from the key
 * file (undefined when adding). Kept values are left out when the server's command, arguments or URL
 * changed. Throws a sentence when a kept value is missing, the working folder does not exist, or the result
 * is not a server Amber can start.
 */
export function formToConfig(form: McpServerForm, before: unknown, isFolder: (path: string) => boolean = folderExists): Record<string, unknown> {
  const old = typeof before === 'object' && before !== null ? (before as Record<string, unknown>) : {};
  // A server that now runs another command or arguments, or has another URL, keeps none of its stored
  // secrets: a value the form asks to keep is left out (the form says so before saving).
  const moved = before !== undefined && mcpServerTarget(old) !== mcpServerTarget(form);
  const kept = <P extends Pair>(pairs: P[]): P[] => (moved ? pairs.filter((p) => !p.keep) : pairs);
  const timeout = form.timeoutSeconds === undefined ? {} : { timeoutMs: form.timeoutSeconds * 1000 };
  let config: Record<string, unknown>;
  if (form.transport === 'stdio') {
    if (form.cwd !== '' && !isFolder(form.cwd))
      throw new AmberError('invalid_input', `The working folder ${form.cwd} does not exist; create it, or leave the field empty for the default workspace.`);
    config = {
      command: form.command,
      args: form.args,
      env: values(kept(form.env), stringRecord(old['env']), 'environment variable'),
      secretEnv: secretNames(kept(form.env), 'command' in old ? marks(old['secretEnv']) : [], undefined),
      ...(form.cwd !== '' ? { cwd: form.cwd } : {}),
      ...timeout,
    };
  } else {
    config = {
      url: form.url,
      headers: values(kept(form.headers), stringRecord(old['headers']), 'header'),
      secretHeaders: secretNames(kept(form.headers), 'url' in old ? marks(old['secretHeaders']) : [], isSecretHeader),
      ...(form.oauthClientId ? { oauthClientId: form.oauthClientId } : {}),
      ...timeout,
    };
  }
  const checked = McpServerConfig.safeParse(config);
  if (!checked.success)
    throw new AmberError('invalid_input', `The server cannot be saved: ${checked.error.issues[0]?.message ?? 'it is not a server Amber can start'}.`);
  return config;
}

/** A stored server as its Edit form, secret values left out. */
export function configToForm(raw: unknown): McpServerForm {
  const parsed = McpServerConfig.safeParse(raw);
  if (!parsed.success) throw new AmberError('invalid_input', 'This server is stored in a form Settings cannot edit; remove it and add it again.');
  const config = parsed.data;
  const timeout = config.timeoutMs === undefined ? {} : { timeoutSeconds: Math.min(3600, Math.max(1, Math.round(config.timeoutMs / 1000))) };
  if ('command' in config) {
    const marked = config.secretEnv;
    return {
      transport: 'stdio',
      command: config.command,
      args: config.args,
      cwd: config.cwd ?? '',
      env: formPairs(config.env, (n) => marked === undefined || marked.includes(n)),
      ...timeout,
    };
  }
  const marked = config.secretHeaders;
  return {
    transport: 'http',
    url: config.url,
    headers: formPairs(config.headers, (n) => marked === undefined || marked.includes(n) || isSecretHeader(n)),
    ...(config.oauthClientId ? { oauthClientId: config.oauthClientId } : {}),
    ...timeout,
  };
}

/** Stored values as form pairs; a secret one without its value. */
function formPairs(record: Pairs, secret: (name: string) => boolean): Pair[] {
  return Object.entries(record).map(([name, value]) =>
    secret(name) ? { name, value: '', secret: true, keep: true } : { name, value, secret: false, keep: false },
  );
}

function folderExists(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
