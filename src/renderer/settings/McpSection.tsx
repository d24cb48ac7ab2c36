import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { McpListing, McpServerTool, McpServerView, McpTrust } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { Icon, useToasts } from '../ui/index.ts';
import { McpServerForm } from './McpServerForm.tsx';
import { McpSignIn } from './McpSignIn.tsx';

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

/** A connected server's tools, each with a switch that trusts it to only read (kept by its mcp__server__tool name). */
function ToolList({ tools, trusted, onTrust }: { tools: McpServerTool[]; trusted: readonly string[]; onTrust(tool: string, on: boolean): void }) {
  if (tools.length === 0) return <p className="muted small">This server offers no tools.</p>;
  return (
    <ul className="mcp-tools" data-testid="mcp-tools">
      {tools.map((t) => {
        const on = trusted.includes(t.tool);
        const short = t.tool.slice(`mcp__${t.server}__`.length);
        return (
          <li key={t.tool} className="mcp-tool" data-testid="mcp-tool" data-tool={t.tool}>
            <div className="mcp-tool-main">
              <code>{short}</code>
              {t.readOnlyHint && (
                <span className="chip" title="The server says this tool only reads; believed once you trust the server or the tool">
                  says it only reads
                </span>
              )}
              {t.description && <span className="mcp-tool-desc">{t.description}</span>}
            </div>
            <button
              type="button"
              role="switch"
              aria-checked={on}
              aria-label={`Trust ${t.tool}`}
              title="Trusted, it runs as a read-only tool: without asking, and in read mode"
              className={`switch${on ? ' is-on' : ''}`}
              onClick={() => onTrust(t.tool, !on)}
              data-testid="mcp-trust-tool-switch"
            >
              <span />
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function ServerRow({
  server,
  busy,
  trusted,
  tools,
  trustedTools,
  onTrustTool,
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
  tools: McpServerTool[];
  trustedTools: readonly string[];
  onTrustTool(tool: string, trusted: boolean): void;
}) {
  const on = server.state !== 'off';
  const [toolsOpen, setToolsOpen] = useState(false);
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
            {server.state === 'unauthorized' && server.signIn === 'needed'
              ? 'Sign in needed'
              : server.signIn === 'waiting'
                ? 'Waiting for sign-in…'
                : STATE_LABELS[server.state]}
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
          <McpSignIn server={server} />
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
          {server.state === 'connected' && (
            <button
              type="button"
              className="btn btn-small btn-ghost"
              aria-expanded={toolsOpen}
              aria-label={`Tools of ${server.name}`}
              onClick={() => setToolsOpen((o) => !o)}
              data-testid="mcp-tools-toggle"
            >
              Tools ({tools.length})
            </button>
          )}
        </div>
        {toolsOpen && server.state === 'connected' && <ToolList tools={tools} trusted={trustedTools} onTrust={onTrustTool} />}
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
    } catch (e) {
      toasts.error('Could not change the trust', e);
    }
  };
  // The connected servers' tools: read again whenever a server's state or tool count changes.
  const toolsKey = listing?.servers.map((s) => `${s.name}:${s.state}:${s.tools}`).join(',') ?? '';
  const toolsQuery = useQuery({ queryKey: ['mcp', 'tools', toolsKey], queryFn: () => api.call('mcp.tools', {}), enabled: listing !== null, staleTime: 0 });
  const allTools = toolsQuery.data ?? [];
  // Trusted tools whose server is not connected now: listed apart, so the trust can still be taken back.
  const listed = new Set(allTools.map((t) => t.tool));
  const elsewhere = trust.tools.filter((t) => !listed.has(t));

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
              tools={allTools.filter((t) => t.server === s.name)}
              trustedTools={trust.tools}
              onTrustTool={(tool, t) => void changeTrust({ tool, trusted: t })}
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
      {elsewhere.length > 0 && (
        <div className="folder-row" data-testid="mcp-trusted-tools">
          <span className="small">Trusted tools of servers not connected now:</span>
          {elsewhere.map((t) => (
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
        </div>
      )}
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
