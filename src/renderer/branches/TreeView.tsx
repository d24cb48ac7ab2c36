import { useInfiniteQuery, useQueries, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { MESSAGE_COUNT_MEANING, type TreeBranchPage } from '../../shared/sessions/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { Icon, useToasts } from '../ui/index.ts';
import { collectTree, MORE_OF_BRANCH } from './collect-tree.ts';
import { plainPreview } from './plain-preview.ts';
import { layoutTree, type TreeRow, treeSummary } from './tree-layout.ts';
import { treeVersionMarks } from './tree-version-marks.ts';
import type { VersionMark } from './version-marks.ts';
import './tree-view.css';
import './version-marks.css';

interface Props {
  sessionId: string;
  onClose(): void;
}

const ROW = 30;
/** Nodes per page of the active branch (read from the leaf upward) and of a branch opened below a branch point. */
const PATH_PAGE = 200;
const BRANCH_PAGE = 100;
/** While fewer nodes than this were read, branches open by themselves: a small conversation shows whole. */
const AUTO_OPEN_BELOW = 400;

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

/** A version's words from where it differs from its siblings, those words stressed; its plain preview when it has none of its own. */
function VersionText({ text, mark }: { text: string; mark: VersionMark | undefined }) {
  if (!mark?.words) return <>{text || '(empty)'}</>;
  // versionTextOf below spells the same text out: keep the two alike.
  return (
    <>
      {mark.cutBefore && '…'}
      <span className="version-words" data-testid="version-words">
        {mark.words}
      </span>
      {mark.rest && ` ${mark.rest}`}
    </>
  );
}

/** What VersionText shows, as one string (a label that must contain the visible text uses it). */
function versionTextOf(text: string, mark: VersionMark | undefined): string {
  if (!mark?.words) return text || '(empty)';
  return `${mark.cutBefore ? '…' : ''}${mark.words}${mark.rest ? ` ${mark.rest}` : ''}`;
}

/** When a version was written and, where its siblings' differ, its model. */
function VersionMeta({ mark }: { mark: VersionMark | undefined }) {
  const parts = [mark?.time, mark?.model].filter(Boolean);
  if (parts.length === 0) return null;
  return (
    <span className="version-meta" data-testid="version-meta">
      {parts.join(' · ')}
    </span>
  );
}

/** A branch not read yet (or the rest of a long one): a row that opens it in place. */
function BranchStub({ row, start, loading, mark, onOpen }: { row: TreeRow; start: number; loading: boolean; mark: VersionMark | undefined; onOpen(): void }) {
  const n = row.node;
  const more = n.type === MORE_OF_BRANCH;
  const text = more ? 'More of this branch' : plainPreview(n.preview) || '(empty)';
  return (
    <div
      className="tree-row tree-stub"
      style={{ transform: `translateY(${start}px)`, height: ROW, paddingLeft: 10 + row.indent * 14 }}
      data-testid="tree-stub"
      data-entry-id={n.id}
      onClick={onOpen}
    >
      {row.indent > 0 && <span className="tree-guide" style={{ left: 10 + (row.indent - 1) * 14 }} aria-hidden="true" />}
      <Icon name="chevronRight" size={13} />
      {/* The button shows what its name says, loading or not (its name must hold its visible text); the
          reading state is told beside it. */}
      <button
        type="button"
        className="tree-preview"
        aria-label={more ? 'Show more of this branch' : `Open the branch starting “${versionTextOf(text, mark)}”`}
        aria-busy={loading || undefined}
        title={more ? undefined : text}
        onClick={(e) => {
          e.stopPropagation();
          onOpen();
        }}
      >
        {more ? text : <VersionText text={text} mark={mark} />}
      </button>
      {loading ? (
        <span className="version-meta" data-testid="tree-stub-reading">
          Reading…
        </span>
      ) : (
        <VersionMeta mark={mark} />
      )}
    </div>
  );
}

/**
 * The session as a tree, read a page at a time: the active branch from the leaf upward (earlier pages as the
 * view reaches the top), and each branch that leaves it opened on demand (by itself while the tree is small).
 * The active path is highlighted, labels are editable, a click jumps there.
 */
export function TreeView({ sessionId, onClose }: Props) {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  // Under the tree's key: read each time the tree opens, and again when the branch moves or a run ends.
  const path = useInfiniteQuery({
    queryKey: [...serverKeys.tree(sessionId), 'path'],
    queryFn: ({ pageParam }) => api.call('sessions.treePage', { sessionId, before: pageParam, limit: PATH_PAGE }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.before,
    staleTime: 0,
  });
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set());
  const openedIds = useMemo(() => [...opened], [opened]);
  const opening = useQueries({
    queries: openedIds.map((from) => ({
      queryKey: [...serverKeys.tree(sessionId), 'branch', from],
      queryFn: () => api.call('sessions.treeBranch', { sessionId, from, limit: BRANCH_PAGE }),
      staleTime: 0,
      retry: false,
    })),
    combine: (results) => ({ pages: results.map((q) => q.data), error: results.find((q) => q.error)?.error ?? null }),
  });
  const branches = useMemo(() => new Map<string, TreeBranchPage | undefined>(openedIds.map((id, i) => [id, opening.pages[i]])), [openedIds, opening.pages]);
  const error = path.error ?? opening.error;
  useEffect(() => {
    if (error) toasts.error('Could not read the conversation tree', error);
  }, [error, toasts]);
  const [editing, setEditing] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);

  const pages = path.data?.pages;
  const leafId = pages?.[0]?.leafId ?? null;
  const collected = useMemo(() => collectTree(pages ?? [], branches), [pages, branches]);
  const rows = useMemo<TreeRow[]>(() => layoutTree(collected.nodes, leafId, collected.stubs), [collected, leafId]);
  const marks = useMemo(() => treeVersionMarks(rows), [rows]);
  const complete = pages !== undefined && !path.hasNextPage && collected.stubs.size === 0;

  const open = (id: string) => setOpened((prev) => (prev.has(id) ? prev : new Set([...prev, id])));
  // A small tree opens its branches by itself, so it reads whole as before paging; a large one waits to be asked.
  const waiting = [...collected.stubs].filter((id) => !opened.has(id));
  const autoOpen = collected.loaded < AUTO_OPEN_BELOW && waiting.length > 0 ? waiting.join(' ') : '';
  useEffect(() => {
    if (autoOpen) setOpened((prev) => new Set([...prev, ...autoOpen.split(' ')]));
  }, [autoOpen]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 12,
    getItemKey: (i) => rows[i]!.node.id,
  });

  // The leaf is brought into view when it moves (and once the first page is read).
  const leafIndex = rows.findIndex((r) => r.isLeaf);
  const centred = useRef<string | null>(null);
  useEffect(() => {
    if (leafIndex < 0 || centred.current === leafId) return;
    centred.current = leafId;
    virtualizer.scrollToIndex(leafIndex, { align: 'center' });
  }, [leafId, leafIndex, virtualizer]);

  // Reaching the top reads the page above; the rows in view stay where they were as it is put in above them.
  const anchor = useRef<{ id: string; offset: number } | null>(null);
  const items = virtualizer.getVirtualItems();
  const loadEarlier = () => {
    if (!path.hasNextPage || path.isFetchingNextPage) return;
    const scroller = scrollRef.current;
    const first = rows[Math.min(rows.length - 1, Math.floor((scroller?.scrollTop ?? 0) / ROW))];
    anchor.current = first && scroller ? { id: first.node.id, offset: scroller.scrollTop - rows.indexOf(first) * ROW } : null;
    void path.fetchNextPage();
  };
  // A first page that does not fill the view has the pages above it read until it does (or the root is reached).
  const fits = rows.length * ROW <= (scrollRef.current?.clientHeight ?? 0);
  useEffect(() => {
    if (fits && path.hasNextPage && !path.isFetchingNextPage) loadEarlier();
  });
  useLayoutEffect(() => {
    const kept = anchor.current;
    if (!kept || path.isFetchingNextPage) return;
    anchor.current = null;
    const index = rows.findIndex((r) => r.node.id === kept.id);
    if (index >= 0) virtualizer.scrollToOffset(index * ROW + kept.offset);
  }, [rows, path.isFetchingNextPage, virtualizer]);

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
          <span className="muted small" data-testid="tree-summary" title={MESSAGE_COUNT_MEANING}>
            {pages ? treeSummary(rows, complete) : ''}
          </span>
        </div>
        <button type="button" className="icon-btn" aria-label="Close tree" onClick={onClose} title="Close (Ctrl+Shift+T)">
          <Icon name="x" />
        </button>
      </div>
      {path.hasNextPage && (
        <button type="button" className="tree-earlier" data-testid="tree-earlier" disabled={path.isFetchingNextPage} onClick={loadEarlier}>
          {path.isFetchingNextPage ? 'Reading earlier messages…' : 'Show earlier messages'}
        </button>
      )}
      <div
        className="tree-scroll"
        ref={scrollRef}
        onScroll={(e) => {
          if (centred.current !== null && e.currentTarget.scrollTop < 2 * ROW) loadEarlier();
        }}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((v) => {
            const row = rows[v.index]!;
            const n = row.node;
            if (row.stub)
              return <BranchStub key={v.key} row={row} start={v.start} loading={opened.has(n.id)} mark={marks.get(n.id)} onOpen={() => open(n.id)} />;
            const mark = marks.get(n.id);
            const text = plainPreview(n.preview);
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
                      title={mark ? text : undefined}
                      onClick={(e) => {
                        e.stopPropagation();
                        void jump(row);
                      }}
                    >
                      <VersionText text={text} mark={mark} />
                    </button>
                    <VersionMeta mark={mark} />
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
