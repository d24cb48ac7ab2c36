import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import {
  isSecretHeader,
  type McpListing,
  McpSaveServer,
  type McpServerForm as McpServerFormValue,
  type McpTestResult,
  mcpServerTarget,
} from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { Icon } from '../ui/index.ts';
import { SegmentedControl } from './SegmentedControl.tsx';

const TRANSPORTS = [
  { value: 'stdio', label: 'Command (stdio)', testId: 'mcp-form-transport-stdio' },
  { value: 'http', label: 'URL (HTTP)', testId: 'mcp-form-transport-http' },
] as const;

/** One variable or header row as typed. `keep`: a stored secret the user has not replaced. */
interface PairDraft {
  key: number;
  name: string;
  value: string;
  secret: boolean;
  keep: boolean;
}

interface Draft {
  name: string;
  transport: 'stdio' | 'http';
  command: string;
  /** One argument per line. */
  args: string;
  cwd: string;
  env: PairDraft[];
  url: string;
  headers: PairDraft[];
  /** The OAuth client id to sign in with ('' : Amber registers itself). */
  clientId: string;
  timeout: string;
}

let nextKey = 1;
const row = (p: Partial<PairDraft> = {}): PairDraft => ({ key: nextKey++, name: '', value: '', secret: false, keep: false, ...p });

const EMPTY: Draft = { name: '', transport: 'stdio', command: '', args: '', cwd: '', env: [], url: '', headers: [], clientId: '', timeout: '' };

function fromServer(name: string, server: McpServerFormValue): Draft {
  const timeout = server.timeoutSeconds === undefined ? '' : String(server.timeoutSeconds);
  if (server.transport === 'stdio') {
    return {
      ...EMPTY,
      name,
      transport: 'stdio',
      command: server.command,
      args: server.args.join('\n'),
      cwd: server.cwd,
      env: server.env.map((p) => row(p)),
      timeout,
    };
  }
  return { ...EMPTY, name, transport: 'http', url: server.url, headers: server.headers.map((p) => row(p)), clientId: server.oauthClientId ?? '', timeout };
}

/** The rows the user filled in, as the request carries them (an empty row is left out). */
const pairs = (rows: PairDraft[]) =>
  rows
    .filter((r) => r.name.trim() !== '' || r.value !== '' || r.keep)
    .map((r) => ({ name: r.name.trim(), value: r.keep ? '' : r.value, secret: r.secret, keep: r.keep }));

/** The request the draft stands for (checked by the same schema main checks it with). */
function toRequest(draft: Draft, previousName: string | null): unknown {
  const timeout = draft.timeout.trim() === '' ? {} : { timeoutSeconds: /^\d+$/.test(draft.timeout.trim()) ? Number(draft.timeout.trim()) : Number.NaN };
  const server =
    draft.transport === 'stdio'
      ? {
          transport: 'stdio',
          command: draft.command,
          args: draft.args.split('\n').filter((a) => a.trim() !== ''),
          cwd: draft.cwd,
          env: pairs(draft.env),
          ...timeout,
        }
      : { transport: 'http', url: draft.url, headers: pairs(draft.headers), ...(draft.clientId.trim() ? { oauthClientId: draft.clientId } : {}), ...timeout };
  return { name: draft.name.trim(), ...(previousName !== null ? { previousName } : {}), server };
}

/** Where the draft's server is: its command and arguments, or its URL (as main compares them). */
const targetOf = (draft: Draft): string =>
  mcpServerTarget(draft.transport === 'http' ? { url: draft.url } : { command: draft.command, args: draft.args.split('\n').filter((a) => a.trim() !== '') });

/**
 * What saving drops: the stored secrets of a server whose command, arguments or URL changed (main keeps
 * none of them for the new one), as a sentence; null when nothing is dropped.
 */
function droppedSecrets(draft: Draft, original: Draft | null): string | null {
  if (!original || original.transport !== draft.transport || targetOf(original) === targetOf(draft)) return null;
  const kept = draft[draft.transport === 'http' ? 'headers' : 'env'].filter((r) => r.keep).map((r) => r.name);
  if (kept.length === 0) return null;
  const what = draft.transport === 'http' ? (kept.length === 1 ? 'header' : 'headers') : kept.length === 1 ? 'secret variable' : 'secret variables';
  const change = draft.transport === 'http' ? 'the URL' : 'the command or its arguments';
  return `Changing ${change} drops the stored ${what} ${kept.join(', ')}; enter ${kept.length === 1 ? 'it' : 'them'} again.`;
}

/** What each field is called on the form, for its error and for why Save is off: `name`, `env`, `env.2`… */
function fieldLabel(key: string): string | null {
  const [field, index] = key.split('.');
  const n = index === undefined ? null : Number(index) + 1;
  switch (field) {
    case 'name':
      return 'Name';
    case 'command':
      return 'Command';
    case 'args':
      return 'Arguments';
    case 'cwd':
      return 'Working folder';
    case 'url':
      return 'URL';
    case 'timeoutSeconds':
      return 'Call timeout';
    case 'oauthClientId':
      return 'OAuth client id';
    case 'env':
      return n === null ? 'Environment variables' : `Environment variable ${n}`;
    case 'headers':
      return n === null ? 'Headers' : `Header ${n}`;
    default:
      return null;
  }
}

/** `A`, `A and B`, `A, B and C`. */
const listed = (items: readonly string[]) => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** Each problem keyed by the field it belongs to: `name`, `command`, `env`, `env.2`… */
function problemsOf(draft: Draft, previousName: string | null, taken: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const parsed = McpSaveServer.safeParse(toRequest(draft, previousName));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.filter((p) => p !== 'server').map(String);
      const key = path[0] === 'env' || path[0] === 'headers' ? path.slice(0, 2).join('.') : (path[0] ?? 'form');
      const message =
        key === 'name'
          ? `A server name is 1-64 letters, digits, _ or -, with no __ and not ending in _.`
          : key === 'timeoutSeconds'
            ? 'The call timeout is a whole number of seconds, from 1 to 3600.'
            : issue.message;
      if (!out.has(key)) out.set(key, message.endsWith('.') ? message : `${message}.`);
    }
  }
  const name = draft.name.trim();
  if (name !== previousName && taken.includes(name)) out.set('name', `A server named '${name}' exists already; choose another name, or edit that one.`);
  return out;
}

/**
 * Settings → MCP servers → Add server / Edit: a stdio server (command, arguments, working folder,
 * environment) or an HTTP one (URL, headers), and its call timeout. Checked as it is typed and again by
 * main: a field's problem shows, with the field named, once the user leaves the field (or tries to save), and
 * Save stays off, saying which fields stop it, while any field is wrong; secret values are never shown again once saved — a stored one stays unless a new one is typed, or
 * the server's command, arguments or URL change (the form says so before saving).
 */
export function McpServerForm({
  editing,
  taken,
  defaultFolder,
  onSaved,
  onClose,
}: {
  /** The server being edited, or null to add one. */
  editing: string | null;
  /** Names already used (a new name may not be one of them). */
  taken: readonly string[];
  defaultFolder: string | undefined;
  onSaved(listing: McpListing): void;
  onClose(): void;
}) {
  const api = useApi();
  const id = useId();
  // Read each time the form opens for Edit (the form is keyed by the server it edits).
  const stored = useQuery({
    queryKey: serverKeys.mcpServer(editing ?? ''),
    queryFn: () => api.call('mcp.server', { name: editing ?? '' }),
    enabled: editing !== null,
    staleTime: 0,
    gcTime: 0,
  });
  /** The server as it was loaded for Edit: what a changed target drops is told against it. */
  const original = useMemo(() => (stored.data ? fromServer(stored.data.name, stored.data.server) : null), [stored.data]);
  /** What the user has typed; until then the server as loaded (or an empty form to add one). */
  const [typed, setDraft] = useState<Draft | null>(null);
  const draft = typed ?? (editing === null ? EMPTY : original);
  /** Save was tried: every problem shows. */
  const [touched, setTouched] = useState(false);
  /** The fields the user has left (`name`, `env`, `env.2`…): their problems show from then on, as they are typed. */
  const [left, setLeft] = useState<ReadonlySet<string>>(new Set());
  const [saving, setSaving] = useState(false);
  const [saveError, setError] = useState<string | null>(null);
  /** The last Test: running, or what it found (kept until the form changes). */
  const [trial, setTrial] = useState<{ running: true } | { running: false; result: McpTestResult } | null>(null);
  const error = saveError ?? (stored.error ? stored.error.message : null);

  if (!draft) {
    return (
      <div className="plugin-config" data-testid="mcp-form">
        {error ? (
          <p className="plugin-reason" role="alert">
            {error}
          </p>
        ) : (
          <div className="skeleton" />
        )}
      </div>
    );
  }

  const problems = problemsOf(draft, editing, taken);
  const drops = droppedSecrets(draft, original);
  const dropNotice = drops ? (
    <span className="hint field-notice" role="status" data-testid="mcp-form-drops">
      {drops}
    </span>
  ) : null;
  const set = (patch: Partial<Draft>) => {
    setTrial(null);
    setDraft({ ...draft, ...patch });
  };
  /** The user left a field (or a row of variables or headers: the row and its group). */
  const leave = (...keys: string[]) => {
    if (keys.some((k) => !left.has(k))) setLeft(new Set([...left, ...keys]));
  };
  /** A field's problem, once the user left the field or tried to save. */
  const problem = (key: string) => (touched || left.has(key) ? problems.get(key) : undefined);
  const errorId = (key: string) => `${id}-error-${key.replace('.', '-')}`;
  /** What an input says of its field's problem: invalid, and described by the error under it. */
  const invalid = (key: string) => (problem(key) ? { 'aria-invalid': true, 'aria-describedby': errorId(key) } : {});
  const fieldError = (key: string) => {
    const p = problem(key);
    const label = fieldLabel(key);
    return p ? (
      <span className="field-error" role="alert" id={errorId(key)} data-testid="mcp-form-error" data-field={key}>
        {label && <strong>{label}: </strong>}
        {p}
      </span>
    ) : null;
  };
  const blocking = [...new Set([...problems.keys()].map((k) => fieldLabel(k) ?? 'the form'))];
  const action = editing === null ? 'Add' : 'Save';
  const saveReason = blocking.length > 0 ? `${action} is off until ${listed(blocking)} ${blocking.length === 1 ? 'is' : 'are'} filled in correctly.` : null;

  const save = async () => {
    setTouched(true);
    if (problems.size > 0 || saving) return;
    setSaving(true);
    setError(null);
    try {
      const listing = await api.call('mcp.save', McpSaveServer.parse(toRequest(draft, editing)));
      onSaved(listing);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  /** Connects the server as it would be saved and lists its tools; nothing is saved. */
  const test = async () => {
    setTouched(true);
    if (problems.size > 0 || trial?.running) return;
    setTrial({ running: true });
    try {
      const result = await api.call('mcp.test', McpSaveServer.parse(toRequest(draft, editing)));
      setTrial({ running: false, result });
    } catch (e) {
      setTrial({ running: false, result: { ok: false, message: e instanceof Error ? e.message : String(e), tools: [] } });
    }
  };

  const pairRows = (what: 'env' | 'headers') => {
    const rows = draft[what];
    const label = what === 'env' ? 'Environment variable' : 'Header';
    const update = (key: number, patch: Partial<PairDraft>) => set({ [what]: rows.map((r) => (r.key === key ? { ...r, ...patch } : r)) });
    return (
      <div className="config-field mcp-pairs" role="group" aria-labelledby={`${id}-${what}-label`} data-testid={`mcp-form-${what}`}>
        <span id={`${id}-${what}-label`} className="mcp-pairs-label">
          {what === 'env' ? 'Environment variables' : 'Headers'}
        </span>
        {rows.map((r, i) => {
          const forced = what === 'headers' && isSecretHeader(r.name.trim());
          const secret = r.secret || forced;
          return (
            <div key={r.key} className="config-secret" data-testid="mcp-form-pair" onBlur={() => leave(what, `${what}.${i}`)}>
              <input
                className="input mono"
                aria-label={`${label} ${i + 1} name`}
                {...invalid(`${what}.${i}`)}
                placeholder={what === 'env' ? 'NAME' : 'Header-Name'}
                value={r.name}
                // A stored secret belongs to its name: renamed, its value is typed again.
                onChange={(e) => update(r.key, r.keep ? { name: e.target.value, keep: false, value: '' } : { name: e.target.value })}
              />
              <input
                className="input mono"
                type={secret ? 'password' : 'text'}
                autoComplete="off"
                aria-label={`${label} ${i + 1} value`}
                placeholder={r.keep ? (drops ? 'dropped on save; type it again' : '•••••••• (stored; type to replace)') : 'value'}
                value={r.keep ? '' : r.value}
                onChange={(e) => update(r.key, e.target.value === '' && r.keep ? {} : { value: e.target.value, keep: false })}
              />
              <label className="small" title={forced ? 'An Authorization header is always secret' : 'Kept in the key file and never shown again'}>
                <input
                  type="checkbox"
                  checked={secret}
                  // A stored secret stays secret until a new value replaces it.
                  disabled={forced || r.keep}
                  onChange={(e) => update(r.key, { secret: e.target.checked })}
                />{' '}
                secret
              </label>
              <button
                type="button"
                className="btn btn-small btn-ghost"
                aria-label={`Remove ${label.toLowerCase()} ${i + 1}`}
                onClick={() => set({ [what]: rows.filter((x) => x.key !== r.key) })}
              >
                ×
              </button>
              {fieldError(`${what}.${i}`)}
            </div>
          );
        })}
        {fieldError(what)}
        <div>
          <button type="button" className="btn btn-small" onClick={() => set({ [what]: [...rows, row()] })} data-testid={`mcp-form-add-${what}`}>
            Add {what === 'env' ? 'variable' : 'header'}
          </button>
        </div>
        <span className="hint">
          {what === 'env'
            ? 'Every value is kept in the key file, never in the database; a secret one is also never shown here again. PATH always reaches the server.'
            : 'An Authorization header (for example Bearer and your token) is always secret. Servers that answer 401 need one.'}
        </span>
      </div>
    );
  };

  return (
    <form
      className="plugin-config"
      aria-label={editing === null ? 'Add an MCP server' : `Edit the MCP server ${editing}`}
      data-testid="mcp-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h4>{editing === null ? 'Add server' : `Edit ${editing}`}</h4>
      <div className="field config-field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          className="mono"
          value={draft.name}
          onChange={(e) => set({ name: e.target.value })}
          onBlur={() => leave('name')}
          {...invalid('name')}
          data-testid="mcp-form-name"
        />
        <span className="hint">
          Its tools are named mcp__<em>name</em>__tool.
        </span>
        {fieldError('name')}
      </div>
      <SegmentedControl label="Transport" options={TRANSPORTS} value={draft.transport} onChange={(transport) => set({ transport })} />
      {draft.transport === 'stdio' ? (
        <>
          <div className="field config-field">
            <label htmlFor={`${id}-command`}>Command</label>
            <input
              id={`${id}-command`}
              className="mono"
              placeholder="npx"
              value={draft.command}
              onChange={(e) => set({ command: e.target.value })}
              onBlur={() => leave('command')}
              {...invalid('command')}
              data-testid="mcp-form-command"
            />
            <span className="hint">Found on PATH, or a full path.</span>
            {fieldError('command')}
            {dropNotice}
          </div>
          <div className="field config-field">
            <label htmlFor={`${id}-args`}>Arguments, one per line</label>
            <textarea
              id={`${id}-args`}
              className="textarea mono"
              rows={3}
              value={draft.args}
              onChange={(e) => set({ args: e.target.value })}
              onBlur={() => leave('args')}
              {...invalid('args')}
              data-testid="mcp-form-args"
            />
            {fieldError('args')}
          </div>
          <div className="field config-field">
            <label htmlFor={`${id}-cwd`}>Working folder</label>
            <input
              id={`${id}-cwd`}
              className="mono"
              placeholder={defaultFolder ?? 'the default workspace'}
              value={draft.cwd}
              onChange={(e) => set({ cwd: e.target.value })}
              onBlur={() => leave('cwd')}
              {...invalid('cwd')}
              data-testid="mcp-form-cwd"
            />
            <span className="hint" data-testid="mcp-form-cwd-hint">
              Empty: the default workspace{defaultFolder ? ` (${defaultFolder})` : ''}, where new conversations start. A server is shared by every conversation,
              so it does not follow the folder of the conversation that calls it; name a folder here to pin one.
            </span>
            {fieldError('cwd')}
          </div>
          {pairRows('env')}
        </>
      ) : (
        <>
          <div className="field config-field">
            <label htmlFor={`${id}-url`}>URL</label>
            <input
              id={`${id}-url`}
              className="mono"
              placeholder="http://127.0.0.1:3001/mcp"
              value={draft.url}
              onChange={(e) => set({ url: e.target.value })}
              onBlur={() => leave('url')}
              {...invalid('url')}
              data-testid="mcp-form-url"
            />
            {fieldError('url')}
            {dropNotice}
          </div>
          {pairRows('headers')}
          <div className="field config-field">
            <label htmlFor={`${id}-client-id`}>OAuth client id (optional)</label>
            <input
              id={`${id}-client-id`}
              className="mono"
              value={draft.clientId}
              onChange={(e) => set({ clientId: e.target.value })}
              onBlur={() => leave('oauthClientId')}
              {...invalid('oauthClientId')}
              data-testid="mcp-form-client-id"
            />
            <span className="hint">
              For a server that signs in with OAuth where Amber cannot register itself: the client id you registered for Amber there (redirect URI
              http://127.0.0.1, any port). Empty: Amber registers itself.
            </span>
            {fieldError('oauthClientId')}
          </div>
        </>
      )}
      <div className="field config-field">
        <label htmlFor={`${id}-timeout`}>Call timeout (seconds)</label>
        <input
          id={`${id}-timeout`}
          inputMode="numeric"
          placeholder="60"
          value={draft.timeout}
          onChange={(e) => set({ timeout: e.target.value })}
          onBlur={() => leave('timeoutSeconds')}
          {...invalid('timeoutSeconds')}
          data-testid="mcp-form-timeout"
        />
        <span className="hint">How long one tool call may take; progress from the server restarts the clock.</span>
        {fieldError('timeoutSeconds')}
      </div>
      {fieldError('form')}
      {error && (
        <p className="plugin-reason" role="alert" data-testid="mcp-form-failure">
          {error}
        </p>
      )}
      {trial && (
        <div
          className={`test-result ${trial.running ? '' : trial.result.ok ? 'test-ok' : 'test-failed'} mcp-trial`}
          role="status"
          data-testid="mcp-form-test-result"
          data-ok={trial.running ? undefined : String(trial.result.ok)}
        >
          {trial.running ? <span className="spinner" /> : <Icon name={trial.result.ok ? 'check' : 'alert'} size={14} />}
          <div className="mcp-trial-body">
            <span>{trial.running ? 'Connecting…' : trial.result.message}</span>
            {!trial.running && trial.result.tools.length > 0 && (
              <ul className="mcp-trial-tools" aria-label="Its tools">
                {trial.result.tools.map((t) => (
                  <li key={t.name} title={t.description}>
                    <code>{t.name}</code>
                    {t.readOnlyHint && <span className="muted"> · says it only reads</span>}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      )}
      <div className="settings-row">
        <button
          type="button"
          className="btn btn-small"
          aria-disabled={trial?.running || undefined}
          onClick={() => void test()}
          title="Connects to the server as it would be saved and lists its tools; nothing is saved"
          data-testid="mcp-form-test"
        >
          {trial?.running ? <span className="spinner" /> : null} Test
        </button>
        <button
          type="submit"
          className="btn btn-primary btn-small"
          aria-disabled={saving || problems.size > 0 || undefined}
          aria-describedby={saveReason ? `${id}-save-reason` : undefined}
          data-testid="mcp-form-save"
        >
          {saving ? <span className="spinner" /> : null} {action}
        </button>
        <button type="button" className="btn btn-small" onClick={onClose}>
          Cancel
        </button>
      </div>
      {saveReason && (
        <span className="hint" id={`${id}-save-reason`} data-testid="mcp-form-save-reason">
          {saveReason}
        </span>
      )}
    </form>
  );
}
