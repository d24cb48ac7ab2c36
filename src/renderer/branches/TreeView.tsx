import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { TreeNode } from '../../shared/sessions/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
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
  const queries = useQueryClient();
  // Read each time the tree opens, and again when the branch moves or a run ends.
  const tree = useQuery({ queryKey: serverKeys.tree(sessionId), queryFn: () => api.call('sessions.tree', { sessionId }), staleTime: 0 });
  const data: { nodes: TreeNode[]; leafId: string | null } | null = tree.data ?? null;
  const { error } = tree;
  useEffect(() => {
    if (error) toasts.error('Could not read the conversation tree', error);
  }, [error, toasts]);
  const [editing, setEditing] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);

  const rows = useMemo<TreeRow[]>(() => (data ? layoutTree(data.nodes, data.leafId) : []), [data]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 12,
    getItemKey: (i) => rows[i]!.node.id,
  });

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
      await queries.invalidateQueries({ queryKey: serverKeys.tree(sessionId) });
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
