import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type McpListing, type McpServerView, McpToolName, type McpTrust } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { Icon, useToasts } from '../ui/index.ts';
import { McpServerForm } from './McpServerForm.tsx';

const STATE_LABELS: Record<McpServerView['state'], string> = {
  off: 'Off',
  connecting: 'Connecting…',
  connected: 'Connected',
  failed: 'Failed',
  unauthorized: 'Needs authorization',
};
// The row's state chip reuses the plugin list's colours.
const STATE_CLASS: Record<McpServerView['state'], string> = {
  off: 'registered',
  connecting: 'activating',
  connected: 'active',
  failed: 'failed',
  unauthorized: 'failed',
};

const NO_TRUST: McpTrust = { servers: [], tools: [] };

const EXAMPLE = '{"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}}}';

function ServerRow({
  server,
  busy,
  trusted,
  onToggle,
  onRestart,
  onRemove,
  onEdit,
  onTrust,
}: {
  server: McpServerView;
  busy: boolean;
  trusted: boolean;
  onToggle(on: boolean): void;
  onRestart(): void;
  onRemove(): void;
  onEdit(): void;
  onTrust(trusted: boolean): void;
}) {
  const on = server.state !== 'off';
  return (
    <div className={`plugin-row state-${STATE_CLASS[server.state]}`} data-testid="mcp-server" data-name={server.name} data-state={server.state}>
      <div className="plugin-main">
        <div className="plugin-title">
          <strong>{server.name}</strong>
          <span className="chip">{server.transport}</span>
          {server.source === 'file' && (
            <span className="chip" title="From mcp.json in the data folder">
              mcp.json
            </span>
          )}
          <span className={`plugin-state state-${STATE_CLASS[server.state]}`} data-testid="mcp-server-state">
            {busy || server.state === 'connecting' ? <span className="spinner" /> : null}
            {STATE_LABELS[server.state]}
          </span>
        </div>
        {server.state === 'connected' && (
          <p className="plugin-desc" data-testid="mcp-server-counts">
            {server.tools} tools · {server.resources} resources · {server.prompts} prompts
          </p>
        )}
        {server.error && (
          <p className="plugin-reason" data-testid="mcp-server-error">
            <Icon name="alert" size={13} /> {server.error}
          </p>
        )}
        <div className="folder-row">
          <button
            type="button"
            className="btn btn-small"
            aria-disabled={busy || !on || undefined}
            onClick={() => !busy && on && onRestart()}
            data-testid="mcp-restart"
          >
            <Icon name="refresh" size={13} /> Restart
          </button>
          {server.source === 'settings' && (
            <button type="button" className="btn btn-small" aria-disabled={busy || undefined} onClick={() => !busy && onEdit()} data-testid="mcp-edit">
              Edit
            </button>
          )}
          {server.source === 'settings' && (
            <button
              type="button"
              className="btn btn-small btn-ghost"
              aria-disabled={busy || undefined}
              onClick={() => !busy && onRemove()}
              data-testid="mcp-remove"
            >
              Remove
            </button>
          )}
          <label className="small" title="Its tools marked readOnlyHint then run without asking, and in read mode">
            <input type="checkbox" checked={trusted} onChange={(e) => onTrust(e.target.checked)} data-testid="mcp-trust-server" /> Trust its read-only tools
          </label>
        </div>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-label={`MCP server ${server.name}`}
        className={`switch${on ? ' is-on' : ''}`}
        aria-disabled={busy || undefined}
        onClick={() => !busy && onToggle(!on)}
        data-testid="mcp-toggle"
      >
        <span />
      </button>
    </div>
  );
}

/** Settings → MCP servers: their state, Add server and Edit forms, import of an mcpServers document, on/off, restart and remove. */
export function McpSection() {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  // mcp.changed carries the new listing into the cache; a reconnect reads both again.
  const listingQuery = useQuery({ queryKey: serverKeys.mcp, queryFn: () => api.call('mcp.list', {}) });
  const trustQuery = useQuery({ queryKey: serverKeys.mcpTrust, queryFn: () => api.call('mcp.trust', {}) });
  const listing: McpListing | null = listingQuery.data ?? null;
  const trust: McpTrust = trustQuery.data ?? NO_TRUST;
  const setListing = (l: McpListing) => queries.setQueryData(serverKeys.mcp, l);
  const setTrust = (t: McpTrust) => queries.setQueryData(serverKeys.mcpTrust, t);
  const [busy, setBusy] = useState<Set<string>>(new Set());
  const [json, setJson] = useState('');
  const [importing, setImporting] = useState(false);
  const [toolName, setToolName] = useState('');
  /** The form open: null for none, '' to add a server, else the name of the server being edited. */
  const [form, setForm] = useState<string | null>(null);

  const listError = listingQuery.error;
  const trustError = trustQuery.error;
  useEffect(() => {
    if (listError) toasts.error('Could not list the MCP servers', listError);
  }, [listError, toasts]);
  useEffect(() => {
    if (trustError) toasts.error('Could not read which MCP servers are trusted', trustError);
  }, [trustError, toasts]);

  const act = async (name: string, what: string, call: () => Promise<McpListing>) => {
    setBusy((s) => new Set(s).add(name));
    try {
      setListing(await call());
    } catch (e) {
      toasts.error(`Could not ${what} ${name}`, e);
    } finally {
      setBusy((s) => {
        const n = new Set(s);
        n.delete(name);
        return n;
      });
    }
  };

  const changeTrust = async (change: { server: string; trusted: boolean } | { tool: string; trusted: boolean }) => {
    try {
      setTrust(await api.call('mcp.setTrust', change));
      if ('tool' in change && change.trusted) setToolName('');
    } catch (e) {
      toasts.error('Could not change the trust', e);
    }
  };
  const toolNameOk = McpToolName.safeParse(toolName.trim()).success;

  const importJson = async () => {
    setImporting(true);
    try {
      const next = await api.call('mcp.import', { json });
      setListing(next);
      setJson('');
      for (const p of next.problems) toasts.push({ kind: 'error', title: 'A server was skipped', message: p });
    } catch (e) {
      toasts.error('Could not import the servers', e);
    } finally {
      setImporting(false);
    }
  };

  return (
    <section className="settings-section" aria-labelledby="settings-mcp" data-testid="settings-mcp">
      <h2 id="settings-mcp">MCP servers</h2>
      <p className="muted settings-lead">
        Tools from Model Context Protocol servers, named <code>mcp__server__tool</code>. They ask before they run in write mode, whatever the server says about
        them, until you trust the server (its tools marked read-only then run as read-only) or the tool.
      </p>
      {!listing && <div className="skeleton" />}
      {listing && listing.servers.length > 0 && (
        <div className="plugin-list" data-testid="mcp-servers">
          {listing.servers.map((s) => (
            <ServerRow
              key={s.name}
              server={s}
              busy={busy.has(s.name)}
              trusted={trust.servers.includes(s.name)}
              onTrust={(t) => void changeTrust({ server: s.name, trusted: t })}
              onToggle={(on) => void act(s.name, on ? 'connect' : 'disconnect', () => api.call('mcp.setEnabled', { name: s.name, enabled: on }))}
              onRestart={() => void act(s.name, 'restart', () => api.call('mcp.restart', { name: s.name }))}
              onRemove={() => void act(s.name, 'remove', () => api.call('mcp.remove', { name: s.name }))}
              onEdit={() => setForm(s.name)}
            />
          ))}
        </div>
      )}
      {form === null ? (
        <div>
          <button type="button" className="btn" onClick={() => setForm('')} data-testid="mcp-add">
            Add server
          </button>
        </div>
      ) : (
        <McpServerForm
          key={form}
          editing={form === '' ? null : form}
          taken={listing?.servers.map((s) => s.name) ?? []}
          defaultFolder={listing?.defaultFolder}
          onSaved={(next) => {
            setListing(next);
            setForm(null);
          }}
          onClose={() => setForm(null)}
        />
      )}
      {listing && listing.servers.length === 0 && (
        <p className="muted small">No servers yet. Add one, paste your mcpServers JSON below, or put it in mcp.json in the data folder.</p>
      )}
      {listing?.problems.map((p) => (
        <p key={p} className="plugin-reason" data-testid="mcp-problem">
          <Icon name="alert" size={13} /> {p}
        </p>
      ))}
      <div className="folder-row" data-testid="mcp-trusted-tools">
        <span className="small">Trusted tools:</span>
        {trust.tools.length === 0 && <span className="muted small">none</span>}
        {trust.tools.map((t) => (
          <span key={t} className="chip" data-testid="mcp-trusted-tool">
            {t}{' '}
            <button
              type="button"
              className="btn btn-small btn-ghost"
              aria-label={`Stop trusting ${t}`}
              onClick={() => void changeTrust({ tool: t, trusted: false })}
            >
              ×
            </button>
          </span>
        ))}
        <input
          className="input mono"
          aria-label="MCP tool to trust"
          placeholder="mcp__server__tool"
          value={toolName}
          onChange={(e) => setToolName(e.target.value)}
          data-testid="mcp-trust-tool-name"
        />
        <button
          type="button"
          className="btn btn-small"
          aria-disabled={!toolNameOk || undefined}
          onClick={() => toolNameOk && void changeTrust({ tool: toolName.trim(), trusted: true })}
          data-testid="mcp-trust-tool"
        >
          Trust tool
        </button>
      </div>
      <label className="small" htmlFor="mcp-import">
        Import servers (the mcpServers JSON other apps and editors use)
      </label>
      <textarea
        id="mcp-import"
        className="input mono"
        rows={4}
        placeholder={EXAMPLE}
        value={json}
        onChange={(e) => setJson(e.target.value)}
        data-testid="mcp-import-json"
      />
      <div>
        <button
          type="button"
          className="btn"
          aria-disabled={importing || json.trim() === '' || undefined}
          onClick={() => !importing && json.trim() !== '' && void importJson()}
          data-testid="mcp-import"
        >
          {importing ? <span className="spinner" /> : null} Import
        </button>
      </div>
    </section>
  );
}
