import { useState } from 'react';
import type { McpResourceText, McpResourceView } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { Icon, useToasts } from '../ui/index.ts';

/** A read resource's text as it goes into a message, with a note where Amber cut it. */
export function resourceNote(read: McpResourceText): string {
  return read.truncated ? `${read.text}\n[cut: the resource is longer than Amber puts into a message]` : read.text;
}

/**
 * The composer's attach button: lists the connected MCP servers' resources and hands the chosen one's text
 * (cut at Amber's cap, with a note) to `onInsert` for the user's message.
 */
export function ResourceAttach({ disabled, onInsert }: { disabled: boolean; onInsert(text: string): void }) {
  const api = useApi();
  const toasts = useToasts();
  const [resources, setResources] = useState<McpResourceView[] | null>(null);
  const [reading, setReading] = useState(false);

  const open = async () => {
    if (resources) return setResources(null);
    try {
      setResources((await api.call('mcp.resources', {})).resources);
    } catch (e) {
      toasts.error('Could not list the MCP resources', e);
    }
  };

  const attach = async (r: McpResourceView) => {
    setResources(null);
    setReading(true);
    try {
      const read = await api.call('mcp.readResource', { server: r.server, uri: r.uri });
      onInsert(resourceNote(read));
    } catch (e) {
      toasts.error(`Could not read ${r.uri}`, e);
    } finally {
      setReading(false);
    }
  };

  return (
    <>
      {resources && (
        <div className="slash-menu" role="listbox" aria-label="MCP resources" data-testid="mcp-resources">
          {resources.length === 0 && <div className="slash-hint">No connected MCP server lists resources. Add servers in Settings → MCP servers.</div>}
          {resources.map((r) => (
            <button
              key={`${r.server}\0${r.uri}`}
              type="button"
              role="option"
              aria-selected={false}
              className="slash-item"
              data-testid="mcp-resource"
              onMouseDown={(e) => {
                e.preventDefault();
                void attach(r);
              }}
            >
              <span className="slash-label">{r.name || r.uri}</span>
              <span className="slash-help">
                {r.server}: {r.uri}
              </span>
            </button>
          ))}
        </div>
      )}
      <button
        type="button"
        className="btn btn-ghost btn-small"
        aria-label="Attach an MCP resource"
        aria-expanded={resources !== null}
        aria-disabled={disabled || reading || undefined}
        title="Attach an MCP resource"
        data-testid="mcp-attach"
        onClick={() => !disabled && !reading && void open()}
      >
        {reading ? <span className="spinner" /> : <Icon name="plus" size={14} />}
      </button>
    </>
  );
}
