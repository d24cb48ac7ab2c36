import { useVirtualizer } from '@tanstack/react-virtual';
import { forwardRef, memo, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { MESSAGE_COUNT_MEANING, type SessionSummary } from '../../shared/sessions/index.ts';
import { Icon } from '../ui/index.ts';
import { Highlighted } from './Highlighted.tsx';
import { NewInProjectMenu } from './NewInProjectMenu.tsx';
import { groupByProject, type SidebarProject } from './session-groups.ts';
import { sessionTime } from './session-time.ts';
import './sessions.css';
import './project-groups.css';

interface Props {
  sessions: SessionSummary[];
  query: string;
  loading: boolean;
  activeId: string | null;
  onQuery(q: string): void;
  onSelect(id: string): void;
  onNew(): void;
  onRename(id: string, title: string): void;
  onDelete(id: string): void;
  /** The projects the list is grouped by (none: by date only). */
  projects?: readonly SidebarProject[];
  /** "New conversation" in a project's group: started in the project, with its defaults. */
  onNewInProject?(projectId: string): void;
}

export interface SidebarHandle {
  focusSearch(): void;
}

const ROW_HEIGHT = 56;
const NO_PROJECTS: readonly SidebarProject[] = [];
const HEADING_HEIGHT = 30;

export function sessionTitle(s: SessionSummary): string {
  return s.title || s.preview || 'New chat';
}

const Row = memo(function Row({
  s,
  query,
  active,
  onSelect,
  onRename,
  onDelete,
}: {
  s: SessionSummary;
  query: string;
  active: boolean;
  onSelect: Props['onSelect'];
  onRename: Props['onRename'];
  onDelete: Props['onDelete'];
}) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState('');
  if (editing) {
    return (
      <div className={`session-row is-editing${active ? ' is-active' : ''}`}>
        <input
          autoFocus
          className="rename-input"
          aria-label="Conversation title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          onBlur={() => setEditing(false)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && title.trim()) {
              onRename(s.id, title.trim());
              setEditing(false);
            } else if (e.key === 'Escape') setEditing(false);
          }}
        />
      </div>
    );
  }
  // The row is a plain container (a click anywhere opens it); its title is the button keyboards reach, and
  // the rename and delete buttons sit beside it, never inside another control.
  return (
    <div
      className={`session-row${active ? ' is-active' : ''}`}
      data-testid="session-row"
      data-session-id={s.id}
      onClick={() => onSelect(s.id)}
      onKeyDown={(e) => {
        if (e.key === 'F2') {
          setTitle(sessionTitle(s));
          setEditing(true);
        }
        if (e.key === 'Delete' && e.target === e.currentTarget.querySelector('.session-open')) onDelete(s.id);
      }}
    >
      <div className="session-line">
        <button
          type="button"
          className="session-open"
          aria-current={active ? 'true' : undefined}
          onClick={(e) => {
            e.stopPropagation();
            onSelect(s.id);
          }}
        >
          <span className="session-title">{sessionTitle(s)}</span>
        </button>
        <span className="session-time">{sessionTime(s.updatedAt, Date.now())}</span>
      </div>
      <div className="session-line">
        {s.match ? (
          <span className="session-snippet" data-testid="session-match" title={s.match}>
            <Highlighted text={s.match} query={query} />
          </span>
        ) : (
          <span className="session-preview" title={s.messageCount > 0 ? MESSAGE_COUNT_MEANING : undefined}>
            {s.messageCount > 0 ? `${s.messageCount} message${s.messageCount === 1 ? '' : 's'}` : 'Empty'}
          </span>
        )}
        <span className="session-actions">
          <button
            type="button"
            className="icon-btn"
            aria-label={`Rename “${sessionTitle(s)}”`}
            title="Rename (F2)"
            onClick={(e) => {
              e.stopPropagation();
              setTitle(sessionTitle(s));
              setEditing(true);
            }}
          >
            <Icon name="pencil" size={14} />
          </button>
          <button
            type="button"
            className="icon-btn"
            aria-label={`Delete “${sessionTitle(s)}”`}
            title="Delete (Del)"
            onClick={(e) => {
              e.stopPropagation();
              onDelete(s.id);
            }}
          >
            <Icon name="trash" size={14} />
          </button>
        </span>
      </div>
    </div>
  );
});

/** The conversations, newest first under date headings (Today, Yesterday, …), virtualized: thousands scroll as smoothly as ten. */
export const SessionSidebar = forwardRef<SidebarHandle, Props>(function SessionSidebar(props, ref) {
  const { sessions, query, loading, activeId, onQuery, onSelect, onNew, onRename, onDelete, projects = NO_PROJECTS, onNewInProject } = props;
  const scrollRef = useRef<HTMLElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  useImperativeHandle(ref, () => ({ focusSearch: () => searchRef.current?.focus() }), []);
  // A row deleted from the keyboard hands the focus to its neighbour (or the search field) once it is gone,
  // instead of dropping it to the page.
  const focusAfterDelete = useRef<{ deleted: string; next: string | null } | null>(null);
  const sessionsRef = useRef(sessions);
  sessionsRef.current = sessions;
  const deleteRow = useCallback(
    (id: string) => {
      const list = sessionsRef.current;
      const i = list.findIndex((x) => x.id === id);
      const fromKeyboard = scrollRef.current?.querySelector(`[data-session-id="${CSS.escape(id)}"]`)?.contains(document.activeElement) ?? false;
      focusAfterDelete.current = fromKeyboard ? { deleted: id, next: (list[i + 1] ?? list[i - 1])?.id ?? null } : null;
      onDelete(id);
    },
    [onDelete],
  );
  useEffect(() => {
    const pending = focusAfterDelete.current;
    if (!pending || sessions.some((x) => x.id === pending.deleted)) return;
    focusAfterDelete.current = null;
    const next = pending.next ? scrollRef.current?.querySelector<HTMLElement>(`[data-session-id="${CSS.escape(pending.next)}"] .session-open`) : null;
    (next ?? searchRef.current)?.focus();
  }, [sessions]);
  // Regrouped when the list changes; a list left open past midnight regroups with the next change.
  const items = useMemo(() => groupByProject(sessions, projects, Date.now()), [sessions, projects]);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (items[i]!.kind === 'session' ? ROW_HEIGHT : HEADING_HEIGHT),
    overscan: 12,
    getItemKey: (i) => items[i]!.key,
    // Rows render in React's scheduler, not synchronously inside each scroll event: overscan covers the gap.
    useFlushSync: false,
  });
  return (
    <aside className="sidebar" data-testid="sidebar">
      <div className="sidebar-head">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <span>Amber</span>
        </div>
        <span className="sidebar-new">
          <button type="button" className="btn btn-primary btn-small" onClick={onNew} data-testid="new-chat" title="New chat (Ctrl+N)">
            <Icon name="plus" size={14} /> New
          </button>
          {projects.length > 0 && onNewInProject && <NewInProjectMenu projects={projects} onNew={onNew} onNewInProject={onNewInProject} />}
        </span>
      </div>
      <label className="search">
        <Icon name="search" size={14} />
        <input
          ref={searchRef}
          type="search"
          placeholder="Search"
          aria-label="Search conversations"
          value={query}
          onChange={(e) => onQuery(e.target.value)}
          data-testid="search"
        />
        <kbd>Ctrl K</kbd>
      </label>
      <nav className="session-list" ref={scrollRef} aria-label="Conversations" data-testid="session-list">
        {!loading && sessions.length === 0 && <div className="list-empty">{query ? 'No conversation matches.' : 'No conversations yet.'}</div>}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const item = items[v.index]!;
            if (item.kind === 'project') {
              const name = item.project?.name ?? 'No project';
              return (
                <h2
                  key={v.key}
                  className="row session-heading project-heading"
                  style={{ height: HEADING_HEIGHT, transform: `translateY(${v.start}px)` }}
                  data-testid="project-heading"
                  data-project-id={item.project?.id ?? ''}
                  title={item.project?.folder}
                >
                  <span className="project-heading-name">
                    {name} · {item.count}
                  </span>
                  {item.project && onNewInProject && (
                    <button
                      type="button"
                      className="icon-btn"
                      aria-label={`New conversation in ${name}`}
                      title={`New conversation in ${name}`}
                      onClick={() => onNewInProject(item.project!.id)}
                      data-testid="project-new"
                    >
                      <Icon name="plus" size={14} />
                    </button>
                  )}
                </h2>
              );
            }
            if (item.kind === 'heading') {
              return (
                <h2
                  key={v.key}
                  className="row session-heading"
                  style={{ height: HEADING_HEIGHT, transform: `translateY(${v.start}px)` }}
                  data-testid="session-heading"
                >
                  {item.label}
                </h2>
              );
            }
            const s = item.session;
            return (
              <div key={v.key} className="row" style={{ height: ROW_HEIGHT, transform: `translateY(${v.start}px)` }}>
                <Row s={s} query={query} active={s.id === activeId} onSelect={onSelect} onRename={onRename} onDelete={deleteRow} />
              </div>
            );
          })}
        </div>
      </nav>
    </aside>
  );
});
