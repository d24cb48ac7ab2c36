import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { ProviderConnectionView } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { describeError, Icon, useToasts } from '../ui/index.ts';
import { accountLine } from './account-line.ts';
import { SecretInput } from './SecretInput.tsx';

type Check = { state: 'testing' } | { state: 'ok'; models: string[] } | { state: 'failed'; message: string };

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** What a connection test found, in words: reachable with its models, or failed with the server's reason. */
function CheckChip({ check }: { check: Check | undefined }) {
  if (!check) return null;
  if (check.state === 'testing')
    return (
      <span className="chip" data-testid="provider-state" data-state="testing">
        <span className="spinner" /> Testing…
      </span>
    );
  if (check.state === 'ok')
    return (
      <span className="chip chip-ok" data-testid="provider-state" data-state="reachable">
        <Icon name="check" size={12} /> Reachable · {plural(check.models.length, 'model')} offered
      </span>
    );
  return (
    <span className="chip chip-error" data-testid="provider-state" data-state="failed">
      <Icon name="alert" size={12} /> Not reachable
    </span>
  );
}

/** The inline form that changes a saved connection: its address, its key and its default model. */
function EditConnection({ connection, onDone }: { connection: ProviderConnectionView; onDone(saved: boolean): void }) {
  const api = useApi();
  const toasts = useToasts();
  const id = useId();
  const [name, setName] = useState(connection.name);
  const [baseUrl, setBaseUrl] = useState(connection.baseUrl);
  const [apiKey, setApiKey] = useState('');
  const [model, setModel] = useState(connection.models[0] ?? '');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const save = async () => {
    setBusy(true);
    try {
      const saved = await api.call('providers.save', {
        providerId: connection.id,
        accountId: connection.id,
        ...(name.trim() !== connection.name ? { name } : {}),
        baseUrl,
        model,
        flavor: connection.presetId,
        ...(apiKey ? { apiKey } : {}),
      });
      if (saved.notice) setNotice(saved.notice);
      else onDone(true);
    } catch (e) {
      toasts.error(`Could not save ${connection.name}`, e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="provider-edit"
      data-testid="provider-edit"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label className="field" htmlFor={`${id}-name`}>
        <span>Name</span>
      </label>
      <input id={`${id}-name`} className="input" value={name} onChange={(e) => setName(e.target.value)} spellCheck={false} />
      <label className="field" htmlFor={`${id}-url`}>
        <span>Base URL</span>
      </label>
      <input id={`${id}-url`} className="input" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} spellCheck={false} />
      <label className="field" htmlFor={`${id}-key`}>
        <span>API key</span>
      </label>
      <SecretInput
        id={`${id}-key`}
        value={apiKey}
        onChange={setApiKey}
        placeholder={connection.hasKey ? 'A key is stored; type a new one to replace it' : 'No key stored'}
        label="API key"
      />
      <label className="field" htmlFor={`${id}-model`}>
        <span>Model for new conversations</span>
      </label>
      <input id={`${id}-model`} className="input" value={model} onChange={(e) => setModel(e.target.value)} list={`${id}-models`} spellCheck={false} />
      <datalist id={`${id}-models`}>
        {connection.models.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      {notice && (
        <p className="plugin-reason" role="status">
          <Icon name="alert" size={13} /> {notice}
        </p>
      )}
      <div className="settings-row">
        <button type="submit" className="btn btn-small btn-primary" aria-disabled={busy || undefined} data-testid="provider-edit-save">
          {busy ? <span className="spinner" /> : null} Save
        </button>
        <button type="button" className="btn btn-small" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * Models: one row per saved connection (name, address, its models, and whether its server answers, tested
 * when the page opens and again on Test), with Edit, Remove, and Add (the setup form).
 */
export function ProvidersSection({ onAdd }: { onAdd(): void }) {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  const listing = useQuery({ queryKey: serverKeys.providerConnections, queryFn: () => api.call('providers.connections', {}), staleTime: 0 });
  const connections = listing.data ?? null;
  const [checks, setChecks] = useState<Record<string, Check>>({});
  const [editing, setEditing] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const { error } = listing;
  useEffect(() => {
    if (error) toasts.error('Could not list the saved connections', error);
  }, [error, toasts]);

  const test = async (id: string) => {
    setChecks((c) => ({ ...c, [id]: { state: 'testing' } }));
    let check: Check;
    try {
      const r = await api.call('providers.testConnection', { id });
      check = r.ok ? { state: 'ok', models: r.models } : { state: 'failed', message: r.message };
    } catch (e) {
      check = { state: 'failed', message: describeError(e) };
    }
    setChecks((c) => ({ ...c, [id]: check }));
  };
  // Each connection is tested once when the page opens, so its row says whether it answers.
  const ids = connections?.map((c) => c.id).join('\n') ?? '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: tested again only when the list of connections changes
  useEffect(() => {
    for (const id of ids ? ids.split('\n') : []) void test(id);
  }, [ids]);

  const remove = async (connection: ProviderConnectionView) => {
    try {
      await api.call('providers.remove', { id: connection.id });
      setRemoving(null);
      await queries.invalidateQueries({ queryKey: serverKeys.providerConnections });
      void queries.invalidateQueries({ queryKey: serverKeys.modelsAll });
    } catch (e) {
      toasts.error(`Could not remove ${connection.name}`, e);
    }
  };

  return (
    <section className="settings-section" aria-labelledby="settings-provider" data-testid="settings-providers">
      <h2 id="settings-provider">Models</h2>
      <p className="muted settings-lead">Where replies come from: each server Amber talks to, its address and its models. Keys stay on this computer.</p>
      {!connections && <div className="skeleton" />}
      {connections?.length === 0 && <p className="hint">No connection is saved yet: add one to start chatting.</p>}
      {connections && connections.length > 0 && (
        <div className="plugin-list" data-testid="provider-list">
          {connections.map((c) => {
            const check = checks[c.id];
            return (
              <div key={c.id} className="provider-row" data-testid="provider-row" data-id={c.id}>
                <div className="plugin-main">
                  <div className="plugin-title">
                    <strong>{c.name}</strong>
                    <span className="muted small" data-testid="provider-account">
                      {accountLine(c, connections)}
                    </span>
                    {c.isDefault && <span className="chip">default for new conversations</span>}
                    <CheckChip check={check} />
                  </div>
                  <code className="provider-url" data-testid="provider-url">
                    {c.baseUrl}
                  </code>
                  <span className="muted small" data-testid="provider-models">
                    {plural(c.models.length, 'model')} saved: {c.models.join(', ')}
                    {c.hasKey ? ' · key stored' : ''}
                  </span>
                  {check?.state === 'failed' && (
                    <p className="plugin-reason" data-testid="provider-reason">
                      <Icon name="alert" size={13} /> {check.message}
                    </p>
                  )}
                  {editing === c.id && (
                    <EditConnection
                      connection={c}
                      onDone={(saved) => {
                        setEditing(null);
                        if (saved) {
                          void queries.invalidateQueries({ queryKey: serverKeys.providerConnections });
                          void test(c.id);
                        }
                      }}
                    />
                  )}
                  {removing === c.id && (
                    <div className="provider-confirm" role="group" aria-label={`Remove ${c.name}`}>
                      <span>Remove {c.name} and its stored key? Conversations using its models stop getting replies until it is added again.</span>
                      <button type="button" className="btn btn-small btn-danger" onClick={() => void remove(c)} data-testid="provider-remove-confirm">
                        Remove
                      </button>
                      <button type="button" className="btn btn-small" onClick={() => setRemoving(null)}>
                        Keep
                      </button>
                    </div>
                  )}
                </div>
                <div className="provider-actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`Test ${c.name}`}
                    aria-disabled={check?.state === 'testing' || undefined}
                    onClick={() => check?.state !== 'testing' && void test(c.id)}
                    data-testid="provider-test"
                  >
                    Test
                  </button>
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`Edit ${c.name}`}
                    aria-expanded={editing === c.id}
                    onClick={() => setEditing((e) => (e === c.id ? null : c.id))}
                    data-testid="provider-edit-toggle"
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="btn btn-small btn-danger-ghost"
                    aria-label={`Remove ${c.name}`}
                    onClick={() => setRemoving(c.id)}
                    data-testid="provider-remove"
                  >
                    Remove
                  </button>
                </div>
              </div>
            );
          })}
        </div>
      )}
      <div>
        <button type="button" className="btn" onClick={onAdd} data-testid="setup-provider">
          <Icon name="plus" size={14} /> Add a connection…
        </button>
      </div>
    </section>
  );
}
