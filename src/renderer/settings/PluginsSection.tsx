import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { PluginListing, PluginState, PluginView } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys, usePluginListing, withPlugin } from '../server-state/index.ts';
import { Icon, useToasts } from '../ui/index.ts';
import { PluginConfigForm } from './PluginConfigForm.tsx';
import { PluginSettingsPanel } from './PluginSettingsPanel.tsx';
import { PluginConsentDialog } from './PluginConsentDialog.tsx';
import { groupByCategory } from './plugin-groups.ts';
import './plugin-state.css';

// Words a user reads: what they can use, not how it runs. A plugin that is on says so — "Tools available"
// when it offers tools — whether or not its process has started (that is under Details).
const STATE_LABELS: Record<PluginState, string> = {
  registered: 'Off',
  idle: 'On',
  activating: 'Starting…',
  active: 'On',
  failed: 'Failed',
  incompatible: 'Incompatible',
  deactivated: 'Off',
};

function stateWords(plugin: PluginView): string {
  if (plugin.state === 'registered' && plugin.enabled) return STATE_LABELS.activating;
  const on = plugin.state === 'idle' || plugin.state === 'active';
  if (on && plugin.contributions.some((c) => c.kind === 'tool' && c.status === 'installed')) return 'Tools available';
  return STATE_LABELS[plugin.state];
}

/** How the plugin runs, for the Details disclosure. */
function processWords(plugin: PluginView): string | null {
  if (plugin.state === 'idle') return 'Not started yet: its process starts the first time one of its tools, commands or panels is used.';
  if (plugin.state === 'active') return 'Running.';
  if (plugin.state === 'deactivated') return 'Switched off this run; its process was stopped.';
  return null;
}

const KIND_LABELS: Record<string, string> = {
  tool: 'tool',
  promptBlock: 'prompt',
  statusSegment: 'status',
  panel: 'panel',
  provider: 'provider',
  wallet: 'wallet',
  allowance: 'allowance',
  command: 'command',
  hook: 'hook',
  method: 'method',
};

function PluginRow({
  plugin,
  pending,
  onToggle,
  onProcess,
}: {
  plugin: PluginView;
  pending: boolean;
  onToggle: (on: boolean) => void;
  onProcess: (shared: boolean) => void;
}) {
  const [settingsOpen, setSettingsOpen] = useState(false);
  const installed = plugin.contributions.filter((c) => c.status === 'installed');
  const declined = plugin.contributions.filter((c) => c.status === 'declined');
  const sharedProcess = plugin.process === 'shared' && plugin.source === 'bundled';
  return (
    <div className={`plugin-row state-${plugin.state}`} data-testid="plugin-row" data-id={plugin.id} data-state={plugin.state}>
      <div className="plugin-main">
        <div className="plugin-title">
          <strong>{plugin.name}</strong>
          <span className="plugin-version">v{plugin.version}</span>
          {plugin.source === 'user' && <span className="chip">user</span>}
          {plugin.needsConfirmation && (
            <span className="chip" title="Switching it on asks you to confirm what it may do" data-testid="plugin-needs-confirmation">
              not yet trusted
            </span>
          )}
          <span className={`plugin-state state-${plugin.state}`} data-testid="plugin-state">
            {pending ? <span className="spinner" /> : null}
            {stateWords(plugin)}
          </span>
        </div>
        {plugin.description && <p className="plugin-desc">{plugin.description}</p>}
        {plugin.reason && (
          <p className="plugin-reason" data-testid="plugin-reason">
            <Icon name="alert" size={13} /> {plugin.reason}
          </p>
        )}
        {(processWords(plugin) || sharedProcess) && (
          <details className="plugin-process-details" data-testid="plugin-process-details">
            <summary>Details</summary>
            {processWords(plugin) && <p>{processWords(plugin)}</p>}
            {sharedProcess && (
              <p>
                <span className="chip" data-testid="plugin-shared">
                  shared process
                </span>{' '}
                It runs in one process with Amber's other plugins, which saves memory.
              </p>
            )}
          </details>
        )}
        {(installed.length > 0 || declined.length > 0) && (
          <div className="plugin-contribs" data-testid="plugin-contributions">
            {installed.map((c) => (
              <span key={`${c.kind}:${c.key}`} className="contrib" title={`${c.kind} ${c.key}`}>
                <em>{KIND_LABELS[c.kind] ?? c.kind}</em> {c.key}
              </span>
            ))}
            {declined.map((c) => (
              <span key={`${c.kind}:${c.key}`} className="contrib is-declined" title={c.reason ?? 'declined'}>
                <em>{KIND_LABELS[c.kind] ?? c.kind}</em> {c.key} <em>not offered: {c.reason ?? 'declined'}</em>
              </span>
            ))}
          </div>
        )}
        {installed
          .filter((c) => c.kind === 'panel' && c.key.endsWith('.settings'))
          .map((c) => (
            <PluginSettingsPanel key={c.key} pluginId={plugin.id} panelId={c.key} title={c.key} />
          ))}
        {plugin.source === 'user' && (
          <label className="plugin-process" title="Grouped plugins share one process: less memory, but a crash or a hang in one restarts the others">
            <input
              type="checkbox"
              checked={plugin.process === 'shared'}
              disabled={pending}
              onChange={(e) => onProcess(e.currentTarget.checked)}
              data-testid="plugin-process"
            />{' '}
            Run in one process with my other grouped plugins
          </label>
        )}
        {plugin.hasSettings && (
          <div className="plugin-settings">
            <button
              type="button"
              className="btn btn-small"
              // Its name keeps the visible word and says whose: the gear of the app is also "Settings".
              aria-label={`${plugin.name} settings`}
              aria-expanded={settingsOpen}
              onClick={() => setSettingsOpen((o) => !o)}
              data-testid="plugin-settings-toggle"
            >
              <Icon name="settings" size={13} /> Settings
            </button>
            {settingsOpen && <PluginConfigForm pluginId={plugin.id} name={plugin.name} onClose={() => setSettingsOpen(false)} />}
          </div>
        )}
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={plugin.enabled}
        aria-label={plugin.name}
        className={`switch${plugin.enabled ? ' is-on' : ''}`}
        // Not `disabled` while it switches: a disabled button drops the keyboard focus to the page.
        aria-disabled={pending || undefined}
        onClick={() => !pending && onToggle(!plugin.enabled)}
        data-testid="plugin-toggle"
      >
        <span />
      </button>
    </div>
  );
}

/** The plugins, grouped by category, with live on/off switches, and the user plugin folder. */
export function PluginsSection() {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  const plugins = usePluginListing();
  const listing = plugins.data ?? null;
  const setListing = (update: (l: PluginListing | undefined) => PluginListing | undefined) => queries.setQueryData<PluginListing>(serverKeys.plugins, update);
  const [pending, setPending] = useState<Set<string>>(new Set());
  const [folderNote, setFolderNote] = useState<string | null>(null);
  const [rescanning, setRescanning] = useState(false);
  // The user plugin waiting for the user's word before its first switch-on.
  const [consent, setConsent] = useState<PluginView | null>(null);

  const { error } = plugins;
  useEffect(() => {
    if (error) toasts.error('Could not list the plugins', error);
  }, [error, toasts]);

  const groups = useMemo(() => groupByCategory(listing?.plugins ?? []), [listing]);

  /** Runs `change` for one plugin with its row marked busy until it settles. */
  const whilePending = async (id: string, change: () => Promise<void>) => {
    setPending((s) => new Set(s).add(id));
    try {
      await change();
    } finally {
      setPending((s) => {
        const n = new Set(s);
        n.delete(id);
        return n;
      });
    }
  };

  const toggle = async (plugin: PluginView, on: boolean, confirm = false) => {
    if (on && plugin.needsConfirmation && !confirm) {
      setConsent(plugin);
      return;
    }
    await whilePending(plugin.id, async () => {
      try {
        const next = await api.call('plugins.setState', { id: plugin.id, enabled: on, ...(confirm ? { confirm: true } : {}) });
        setListing((l) => withPlugin(l, next));
        if (on && next.state !== 'active' && next.state !== 'idle')
          toasts.push({ kind: 'error', title: `${next.name} did not start`, message: next.reason ?? STATE_LABELS[next.state] });
      } catch (e) {
        toasts.error(`Could not turn ${plugin.name} ${on ? 'on' : 'off'}`, e);
      } finally {
        if (confirm) setConsent(null);
      }
    });
  };

  const setProcess = (plugin: PluginView, shared: boolean) =>
    whilePending(plugin.id, async () => {
      try {
        const next = await api.call('plugins.setProcess', { id: plugin.id, process: shared ? 'shared' : 'own' });
        setListing((l) => withPlugin(l, next));
      } catch (e) {
        toasts.error(`Could not move ${plugin.name}`, e);
      }
    });

  const openFolder = async () => {
    try {
      const r = await api.call('plugins.openFolder', {});
      setFolderNote(r.opened ? null : `Open this folder in your file manager (the browser cannot): ${r.folder}`);
    } catch (e) {
      toasts.error('Could not open the plugin folder', e);
    }
  };

  const rescan = async () => {
    setRescanning(true);
    try {
      const before = new Set(listing?.plugins.map((p) => p.id));
      const next = await api.call('plugins.rescan', {});
      setListing(() => next);
      const added = next.plugins.filter((p) => !before.has(p.id));
      toasts.push({ kind: 'info', title: added.length ? `Found ${added.map((p) => p.name).join(', ')}` : 'No new plugins found' });
    } catch (e) {
      toasts.error('Could not look for plugins', e);
    } finally {
      setRescanning(false);
    }
  };

  return (
    <section className="settings-section" aria-labelledby="settings-plugins" data-testid="settings-plugins">
      <h2 id="settings-plugins">Plugins</h2>
      <p className="muted settings-lead">
        Amber's own plugins share one process (those that run commands or outside servers have their own); each of yours runs in a process of its own unless you
        group it. Switching one off removes everything it adds at once — no restart.
      </p>
      {!listing && <div className="skeleton" />}
      {groups.map((g) => (
        <div key={g.category} className="plugin-group" data-testid="plugin-group" data-category={g.category}>
          <h3>{g.title}</h3>
          <div className="plugin-list">
            {g.plugins.map((p) => (
              <PluginRow
                key={p.id}
                plugin={p}
                pending={pending.has(p.id)}
                onToggle={(on) => void toggle(p, on)}
                onProcess={(shared) => void setProcess(p, shared)}
              />
            ))}
          </div>
        </div>
      ))}
      <div className="plugin-group">
        <h3>Your plugins</h3>
        <div className="folder-row">
          <code className="folder-path" data-testid="plugin-folder">
            {listing?.folder ?? '…'}
          </code>
          <button type="button" className="btn btn-small" onClick={() => void openFolder()} data-testid="open-plugin-folder">
            Open folder
          </button>
          <button
            type="button"
            className="btn btn-small"
            aria-disabled={rescanning || undefined}
            onClick={() => !rescanning && void rescan()}
            data-testid="rescan-plugins"
          >
            {rescanning ? <span className="spinner" /> : <Icon name="refresh" size={13} />} Rescan
          </button>
        </div>
        {folderNote && <p className="muted small">{folderNote}</p>}
        <p className="hint">
          Put each plugin in a folder named after its id, with its manifest.json and built entry; then Rescan. New plugins start off, and the first time you
          switch one on, Amber says what it will be able to do and asks you to confirm.
        </p>
        {listing?.problems.map((p) => (
          <p key={p.dir} className="plugin-reason" data-testid="plugin-problem">
            <Icon name="alert" size={13} /> {p.reason}
          </p>
        ))}
      </div>
      {consent && (
        <PluginConsentDialog
          plugin={listing?.plugins.find((p) => p.id === consent.id) ?? consent}
          busy={pending.has(consent.id)}
          onConfirm={() => void toggle(consent, true, true)}
          onCancel={() => setConsent(null)}
        />
      )}
    </section>
  );
}
