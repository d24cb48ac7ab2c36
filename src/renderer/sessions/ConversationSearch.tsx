import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { Icon, Modal } from '../ui/index.ts';
import './conversation-search.css';
import { Highlighted } from './Highlighted.tsx';
import type { SidebarProject } from './session-groups.ts';
import './project-groups.css';
import { sessionTitle } from './SessionSidebar.tsx';
import { sessionTime } from './session-time.ts';

/** How many conversations the overlay lists: the newest with nothing typed, the best matches with a query. */
const SHOWN = 30;
/** Typing asks main once the typing pauses. */
const SEARCH_DELAY_MS = 120;

interface Props {
  activeId: string | null;
  /** The projects a search can be scoped to (none: no scope offered). */
  projects?: readonly SidebarProject[];
  onOpen(id: string): void;
  onClose(): void;
}

/**
 * Search over the conversations (Ctrl+K), over whatever the window shows: results as the user types (titles
 * and the words around a match in the messages), arrows to move, Enter to open, Escape to close.
 */
export function ConversationSearch({ activeId, projects = [], onOpen, onClose }: Props) {
  const api = useApi();
  const [query, setQuery] = useState('');
  /** The project the search is scoped to; '' for every conversation. */
  const [scope, setScope] = useState('');
  const [asked, setAsked] = useState('');
  const [index, setIndex] = useState(0);
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const t = setTimeout(() => setAsked(query.trim()), query.trim() ? SEARCH_DELAY_MS : 0);
    return () => clearTimeout(t);
  }, [query]);
  const found = useQuery({
    queryKey: [...serverKeys.sessions(asked), 'search', SHOWN, scope],
    queryFn: () => api.call('sessions.list', { query: asked || undefined, limit: SHOWN, ...(scope ? { projectId: scope } : {}) }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const results = found.data?.sessions ?? [];
  const settled = !found.isPending && !found.isPlaceholderData && asked === query.trim();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new query or scope starts at the first result
  useEffect(() => setIndex(0), [asked, scope]);
  useEffect(() => {
    list.current?.querySelector(`#conversation-result-${index}`)?.scrollIntoView({ block: 'nearest' });
  }, [index]);
  const open = (id: string | undefined) => {
    if (!id) return;
    onClose();
    onOpen(id);
  };

  return (
    <Modal
      className="conversation-search"
      backdropClassName="conversation-search-backdrop"
      label="Search conversations"
      testId="conversation-search"
      onEscape={onClose}
      onBackdrop={onClose}
    >
      <div className="conversation-search-field">
        <Icon name="search" />
        <input
          autoFocus
          value={query}
          placeholder="Search conversations…"
          aria-label="Search conversations"
          role="combobox"
          aria-expanded="true"
          aria-controls="conversation-results"
          aria-activedescendant={results[index] ? `conversation-result-${index}` : undefined}
          data-testid="conversation-search-input"
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              if (results.length) setIndex((i) => (i + (e.key === 'ArrowDown' ? 1 : results.length - 1)) % results.length);
            } else if (e.key === 'Enter') {
              e.preventDefault();
              open(results[index]?.id);
            }
          }}
        />
        <kbd>Esc</kbd>
      </div>
      {projects.length > 0 && (
        <select
          className="input conversation-search-scope"
          aria-label="Search in"
          value={scope}
          onChange={(e) => setScope(e.target.value)}
          data-testid="conversation-search-scope"
        >
          <option value="">All conversations</option>
          {projects.map((p) => (
            <option key={p.id} value={p.id}>
              In {p.name}
            </option>
          ))}
        </select>
      )}
      <div
        className="conversation-results"
        id="conversation-results"
        role="listbox"
        aria-label="Conversations found"
        ref={list}
        aria-busy={!settled || undefined}
      >
        {settled && results.length === 0 && (
          <div className="conversation-results-empty" data-testid="conversation-search-empty">
            {asked ? `No conversation mentions “${asked}”.` : 'No conversations yet.'}
          </div>
        )}
        {!asked && results.length > 0 && <div className="conversation-results-heading">Recent</div>}
        {results.map((s, i) => (
          <button
            key={s.id}
            type="button"
            role="option"
            id={`conversation-result-${i}`}
            tabIndex={-1}
            aria-selected={i === index}
            className={`conversation-result${i === index ? ' is-active' : ''}`}
            data-testid="conversation-result"
            data-session-id={s.id}
            onMouseMove={() => setIndex(i)}
            onClick={() => open(s.id)}
          >
            <span className="conversation-result-line">
              <span className="conversation-result-title">
                <Highlighted text={sessionTitle(s)} query={asked} />
              </span>
              {s.id === activeId && <span className="conversation-result-open">open</span>}
              <span className="conversation-result-time">{sessionTime(s.updatedAt, Date.now())}</span>
            </span>
            {s.match && (
              <span className="conversation-result-match" data-testid="conversation-result-match">
                <Highlighted text={s.match} query={asked} />
              </span>
            )}
          </button>
        ))}
      </div>
    </Modal>
  );
}
