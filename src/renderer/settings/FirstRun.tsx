import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProviderPresetView } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { Icon, describeError, useToasts } from '../ui/index.ts';

type Preset = ProviderPresetView;

const NO_PRESETS: Preset[] = [];

/** Shown until a provider is set up: where the model lives, the key, which model, and a test call. */
export function FirstRun({ onDone, onSkip }: { onDone: (model: string) => void; onSkip: () => void }) {
  const api = useApi();
  const toasts = useToasts();
  // Presets come ordered: a local server that answered first. Read each time the screen shows.
  const presetsQuery = useQuery({ queryKey: serverKeys.presets, queryFn: () => api.call('providers.presets', {}), staleTime: 0 });
  const presets = presetsQuery.data ?? NO_PRESETS;
  const loaded = !presetsQuery.isPending;
  // Set once the user picks a provider or types a base URL: the preset list, which arrives after the local
  // servers were asked, must not overwrite that choice. Until then the first preset is the choice.
  const [picked, setPreset] = useState<string | null>(null);
  const [typedUrl, setBaseUrl] = useState<string | null>(null);
  const touched = picked !== null || typedUrl !== null;
  const first = touched ? undefined : presets[0];
  const preset = picked ?? first?.id ?? 'custom';
  const baseUrl = typedUrl ?? first?.baseUrl ?? '';
  const [apiKey, setApiKey] = useState('');
  const [name, setName] = useState('');
  const [model, setModel] = useState('');
  const [models, setModels] = useState<string[]>([]);
  const [test, setTest] = useState<{ state: 'idle' | 'testing' | 'ok' | 'failed'; message: string }>({ state: 'idle', message: '' });
  const choices = presets;
  const chosen = choices.find((p) => p.id === preset);
  // The saved connection a save without a name changes (the preset's own), if there is one.
  const connections = useQuery({ queryKey: serverKeys.providerConnections, queryFn: () => api.call('providers.connections', {}), staleTime: 0 }).data;
  const replaced = chosen ? connections?.find((c) => c.id === chosen.providerId) : undefined;
  const dialect = chosen?.dialect;

  const runTest = async () => {
    setTest({ state: 'testing', message: 'Connecting…' });
    try {
      const r = await api.call('providers.test', { baseUrl, apiKey: apiKey || undefined, dialect });
      setModels(r.models);
      if (r.models.length && !model) setModel(r.models[0]!);
      setTest({ state: r.ok ? 'ok' : 'failed', message: r.message });
    } catch (e) {
      setTest({ state: 'failed', message: describeError(e) });
    }
  };

  const pick = (p: Preset) => {
    setPreset(p.id);
    // A preset brings its address; "Other" starts empty, so no other server's address is kept by mistake.
    setBaseUrl(p.baseUrl);
    setTest({ state: 'idle', message: '' });
  };

  const save = async () => {
    try {
      if (!chosen) return;
      // Every model the test listed is offered in the model picker, the chosen one first.
      const listed = models.length > 0 ? { models } : {};
      const saved = await api.call('providers.save', {
        providerId: chosen.providerId,
        baseUrl,
        apiKey: apiKey || undefined,
        model,
        flavor: chosen.flavor,
        // A name makes a connection of its own (a second server or key of the same kind); none changes the preset's own.
        ...(name.trim() ? { name: name.trim() } : {}),
        ...listed,
      });
      if (saved.notice) {
        // The key was removed (the base URL moved to another server): stay, so the user can paste one.
        setTest({ state: 'failed', message: saved.notice });
        return;
      }
      onDone(model);
    } catch (e) {
      toasts.error('Could not save the provider', e);
    }
  };

  return (
    <div className="first-run" data-testid="first-run">
      <div className="first-run-card">
        <div className="first-run-head">
          <span className="brand-mark big" aria-hidden="true" />
          <div>
            <h1>Welcome to Amber</h1>
            <p className="muted">Connect a model to start chatting. Keys stay on this computer.</p>
          </div>
        </div>
        {loaded && choices.length === 0 && (
          <div className="test-result test-failed" role="status">
            <Icon name="alert" />
            <span>Amber could not list the providers it knows. Restart it; if this stays, report it.</span>
          </div>
        )}
        {choices.length > 0 && (
          <div className="preset-grid" role="radiogroup" aria-label="Provider">
            {choices.map((p, i) => (
              <button
                key={p.id}
                type="button"
                role="radio"
                aria-checked={preset === p.id}
                // One stop for Tab; the arrow keys move the choice, as in any radio group.
                tabIndex={preset === p.id || (!choices.some((c) => c.id === preset) && i === 0) ? 0 : -1}
                className={`preset${preset === p.id ? ' is-selected' : ''}${p.name.length > 16 ? ' is-wide' : ''}`}
                onClick={() => pick(p)}
                onKeyDown={(e) => {
                  const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
                  if (!step) return;
                  e.preventDefault();
                  const next = choices[(i + step + choices.length) % choices.length]!;
                  pick(next);
                  (e.currentTarget.parentElement?.children[(i + step + choices.length) % choices.length] as HTMLElement | undefined)?.focus();
                }}
              >
                {p.name}
                {p.detected && <span className="preset-detected">running</span>}
              </button>
            ))}
          </div>
        )}
        <label className="field">
          <span>Base URL</span>
          <input
            value={baseUrl}
            // Entering the field keeps the choice it shows: a preset list arriving while one types must not put
            // its address under the caret (the typing would be added to it).
            onFocus={() => {
              if (touched) return;
              setPreset(preset);
              setBaseUrl(baseUrl);
            }}
            onChange={(e) => {
              setBaseUrl(e.target.value);
            }}
            placeholder={chosen?.baseUrl === '' ? 'http://localhost:8080/v1' : 'https://api.example.com/v1'}
            spellCheck={false}
          />
        </label>
        <label className="field">
          <span>
            Name <em className="muted">(a second connection of the same kind needs its own)</em>
          </span>
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder={chosen?.name ?? 'My server'}
            spellCheck={false}
            data-testid="first-run-name"
          />
        </label>
        {replaced && !name.trim() && (
          <p className="hint" data-testid="first-run-replaces">
            Without a name, saving changes your saved connection “{replaced.name}”; give this one a name to add another.
          </p>
        )}
        <label className="field">
          <span>API key {chosen && !chosen.needsKey && <em className="muted">(not needed)</em>}</span>
          <input type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} placeholder="sk-…" autoComplete="off" />
        </label>
        <label className="field">
          <span>Model</span>
          <input
            value={model}
            onChange={(e) => setModel(e.target.value)}
            list="first-run-models"
            placeholder="Run the test to list the models"
            spellCheck={false}
          />
          <datalist id="first-run-models">
            {models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
        </label>
        {models.length > 1 && (
          <p className="hint" data-testid="first-run-models-hint">
            All {models.length} models the server lists will be offered in each conversation's model picker; this one is the default.
          </p>
        )}
        {test.state !== 'idle' && (
          <div className={`test-result test-${test.state}`} role="status">
            {test.state === 'testing' ? <span className="spinner" /> : <Icon name={test.state === 'ok' ? 'check' : 'alert'} />}
            <span>{test.message}</span>
          </div>
        )}
        <div className="first-run-actions">
          <button type="button" className="btn btn-ghost" onClick={onSkip}>
            Set up later
          </button>
          <span className="spacer" />
          <button type="button" className="btn" disabled={!baseUrl || test.state === 'testing'} onClick={() => void runTest()}>
            Test connection
          </button>
          <button type="button" className="btn btn-primary" disabled={!baseUrl || !model || !chosen} onClick={() => void save()}>
            Save and start
          </button>
        </div>
      </div>
    </div>
  );
}
