import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TreeNode } from '../../shared/sessions/index.ts';
import { useApi } from '../api/index.ts';
import { Icon, useToasts } from '../ui/index.ts';
import { layoutTree, type TreeRow, treeSummary } from './tree-layout.ts';

interface Props {
  sessionId: string;
  onClose(): void;
}

const ROW = 30;

function LabelEditor({ initial, onDone }: { initial: string; onDone: (label: string | null | undefined) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <input
      autoFocus
      className="label-input"
      aria-label="Label"
      placeholder="Label (empty clears)"
      value={value}
      onClick={(e) => e.stopPropagation()}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => onDone(undefined)}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Enter') onDone(value.trim() || null);
        else if (e.key === 'Escape') onDone(undefined);
      }}
    />
  );
}

/** The whole session as a tree: the active path highlighted, labels editable, a click jumps there. */
export function TreeView({ sessionId, onClose }: Props) {
  const api = useApi();
  const toasts = useToasts();
  const [data, setData] = useState<{ nodes: TreeNode[]; leafId: string | null } | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);

  const load = useCallback(async () => {
    try {
      setData(await api.call('sessions.tree', { sessionId }));
    } catch (e) {
      toasts.error('Could not read the conversation tree', e);
    }
  }, [api, sessionId, toasts]);

  useEffect(() => {
    void load();
    const offs = [
      api.on('session.branched', (e) => {
        if (e.sessionId === sessionId) void load();
      }),
      api.on('agent.emitted', (e) => {
        if (e.sessionId === sessionId && e.type === 'agent_settled') void load();
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [api, load, sessionId]);

  const rows = useMemo<TreeRow[]>(() => (data ? layoutTree(data.nodes, data.leafId) : []), [data]);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW, overscan: 12, getItemKey: (i) => rows[i]!.node.id });

  const leafIndex = rows.findIndex((r) => r.isLeaf);
  useEffect(() => {
    if (leafIndex >= 0) virtualizer.scrollToIndex(leafIndex, { align: 'center' });
  }, [leafIndex, virtualizer]);

  const jump = async (row: TreeRow) => {
    try {
      await api.call('sessions.branch', { sessionId, entryId: row.node.id, follow: 'exact' });
    } catch (e) {
      toasts.error('Could not jump there', e);
    }
  };

  const saveLabel = async (targetId: string, label: string | null | undefined) => {
    setEditing(null);
    if (label === undefined) return;
    try {
      await api.call('entries.label', { sessionId, targetId, label });
      await load();
    } catch (e) {
      toasts.error('Could not save the label', e);
    }
  };

  return (
    <aside className="tree-panel" data-testid="tree-view" aria-label="Conversation tree">
      <div className="panel-head">
        <Icon name="branch" />
        <div className="panel-title">
          <strong>Tree</strong>
          <span className="muted small" data-testid="tree-summary">
            {treeSummary(rows)}
          </span>
        </div>
        <button type="button" className="icon-btn" aria-label="Close tree" onClick={onClose} title="Close (Ctrl+Shift+T)">
          <Icon name="x" />
        </button>
      </div>
      <div className="tree-scroll" ref={scrollRef}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const row = rows[v.index]!;
            const n = row.node;
            const cls = ['tree-row', row.onActivePath ? 'on-path' : '', row.isLeaf ? 'is-leaf' : '', `role-${n.role ?? n.type}`].join(' ');
            return (
              <div
                key={v.key}
                className={cls}
                style={{ transform: `translateY(${v.start}px)`, height: ROW, paddingLeft: 10 + row.indent * 14 }}
                data-testid="tree-node"
                data-entry-id={n.id}
                data-active={row.onActivePath || undefined}
                onClick={() => void jump(row)}
              >
                {row.indent > 0 && <span className="tree-guide" style={{ left: 10 + (row.indent - 1) * 14 }} aria-hidden="true" />}
                <span className="tree-dot" aria-hidden="true" />
                <span className="tree-role">{n.role === 'user' ? 'You' : n.role === 'assistant' ? 'AI' : '∑'}</span>
                {editing === n.id ? (
                  <LabelEditor initial={n.label ?? ''} onDone={(l) => void saveLabel(n.id, l)} />
                ) : (
                  <>
                    {/* The row is a plain container (a click anywhere jumps); this button is what keyboards reach. */}
                    <button
                      type="button"
                      className="tree-preview"
                      aria-current={row.isLeaf ? 'true' : undefined}
                      onClick={(e) => {
                        e.stopPropagation();
                        void jump(row);
                      }}
                    >
                      {n.preview || '(empty)'}
                    </button>
                    {n.label && (
                      <span className="tree-label" data-testid="tree-label">
                        {n.label}
                      </span>
                    )}
                    <button
                      type="button"
                      className="icon-btn tree-tag"
                      aria-label="Edit label"
                      title="Label this message"
                      onClick={(e) => {
                        e.stopPropagation();
                        setEditing(n.id);
                      }}
                    >
                      <Icon name="tag" size={13} />
                    </button>
                  </>
                )}
              </div>
            );
          })}
        </div>
      </div>
    </aside>
  );
}
