import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { type ApiOutput, type ModelChoice, modelFacts } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { Icon, useToasts } from '../ui/index.ts';
import './model-picker.css';

type Models = ApiOutput<'chat.models'>;
const OPEN_EVENT = 'amber:open-model-picker';

/** Opens the open conversation's model picker (the window's Ctrl+Shift+M, and the palette's "Choose the model"). */
export function openModelPicker(): void {
  window.dispatchEvent(new Event(OPEN_EVENT));
}
const keyOf = (m: { provider: string; modelId: string }) => `${m.provider}/${m.modelId}`;
const groupOf = (m: ModelChoice) => m.account ?? m.provider;

/** The models whose account, name or id hold every word typed, grouped by account in the order listed. */
export function filterModels(models: readonly ModelChoice[], query: string): { group: string; models: ModelChoice[] }[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const groups = new Map<string, ModelChoice[]>();
  for (const m of models) {
    const text = `${groupOf(m)} ${m.name} ${m.modelId} ${m.provider}`.toLowerCase();
    if (!words.every((w) => text.includes(w))) continue;
    const list = groups.get(groupOf(m)) ?? [];
    list.push(m);
    groups.set(groupOf(m), list);
  }
  return [...groups].map(([group, list]) => ({ group, models: list }));
}

/**
 * The conversation's model, beside Send: a button naming the current model that opens a searchable list of
 * every model of every account, grouped by account with the catalog's facts on each row. Typing filters,
 * the arrow keys move, Enter picks, Escape closes. A pick is a model_change on the branch (the next reply
 * uses it); /model does the same. "Refresh models" asks the accounts' servers for their lists again.
 */
export function ModelPicker({ sessionId, running }: { sessionId: string; running: boolean }) {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  const data: Models | null =
    useQuery({ queryKey: serverKeys.models(sessionId), queryFn: () => api.call('chat.models', { sessionId }), staleTime: 0 }).data ?? null;
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const id = useId();

  const models = data?.models ?? [];
  const current = data?.current ? keyOf(data.current) : null;
  const currentModel = models.find((m) => keyOf(m) === current);
  const groups = useMemo(() => filterModels(models, query), [models, query]);
  const flat = useMemo(() => groups.flatMap((g) => g.models), [groups]);

  const canOpen = !!data && !running && (data.models.length > 0 || data.current !== null);
  useEffect(() => {
    if (!canOpen) return;
    const onOpen = () => setOpen(true);
    window.addEventListener(OPEN_EVENT, onOpen);
    return () => window.removeEventListener(OPEN_EVENT, onOpen);
  }, [canOpen]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!popover.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('pointerdown', onDown);
    return () => window.removeEventListener('pointerdown', onDown);
  }, [open]);
  // The active row follows the filter: the current model when it is shown, else the first.
  useEffect(() => {
    if (!open) return;
    setActiveKey((k) => {
      if (k && flat.some((m) => keyOf(m) === k)) return k;
      const first = flat.find((m) => keyOf(m) === current) ?? flat[0];
      return first ? keyOf(first) : null;
    });
  }, [open, flat, current]);
  useEffect(() => {
    if (open && activeKey) listRef.current?.querySelector(`[data-key="${CSS.escape(activeKey)}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [open, activeKey]);

  if (!data) return null;
  const close = (refocus: boolean) => {
    setOpen(false);
    setQuery('');
    if (refocus) button.current?.focus();
  };
  const pick = (m: ModelChoice) => {
    close(true);
    if (keyOf(m) === current) return;
    api.call('chat.setModel', { sessionId, provider: m.provider, modelId: m.modelId }).then(
      (r) => queries.setQueryData<Models>(serverKeys.models(sessionId), (d) => (d ? { ...d, current: r.current } : d)),
      (err: unknown) => toasts.error('Could not switch the model', err),
    );
  };
  const refresh = async () => {
    setRefreshing(true);
    try {
      const r = await api.call('providers.refreshModels', {});
      await queries.invalidateQueries({ queryKey: serverKeys.modelsAll });
      const failed = r.accounts.filter((a) => !a.ok);
      if (failed.length) toasts.push({ kind: 'error', title: 'Some servers did not answer', message: failed.map((a) => `${a.name}: ${a.message}`).join(' ') });
    } catch (e) {
      toasts.error('Could not refresh the models', e);
    } finally {
      setRefreshing(false);
    }
  };
  const move = (by: number) => {
    if (flat.length === 0) return;
    const i = flat.findIndex((m) => keyOf(m) === activeKey);
    const next = flat[(i + by + flat.length) % flat.length]!;
    setActiveKey(keyOf(next));
  };
  const optionId = (m: ModelChoice) => `${id}-${keyOf(m).replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  const active = flat.find((m) => keyOf(m) === activeKey);
  const label = currentModel?.name ?? data.current?.modelId ?? (models.length ? 'Choose a model' : 'No model');

  return (
    <div className="model-picker">
      <button
        ref={button}
        type="button"
        className="model-picker-button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-label={`Model: ${label}. Change the model`}
        title={
          running
            ? 'The model can be changed once the reply is done'
            : `The model the next reply comes from${currentModel ? ` (${groupOf(currentModel)})` : ''}`
        }
        disabled={running || (models.length === 0 && !data.current)}
        onClick={() => (open ? close(false) : setOpen(true))}
        data-testid="model-picker"
      >
        <span className="model-picker-name">{label}</span>
        <Icon name="chevronDown" size={13} />
      </button>
      {open && (
        <div ref={popover} className="model-popover" data-testid="model-popover">
          <div className="model-search">
            <Icon name="search" size={14} />
            <input
              autoFocus
              role="combobox"
              aria-expanded="true"
              aria-controls={`${id}-list`}
              aria-activedescendant={active ? optionId(active) : undefined}
              aria-label="Search the models"
              placeholder="Search models"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'ArrowDown') move(1);
                else if (e.key === 'ArrowUp') move(-1);
                else if (e.key === 'Enter' && active) pick(active);
                else if (e.key === 'Escape') close(true);
                else if (e.key === 'Tab') return close(false);
                else return;
                e.preventDefault();
                e.stopPropagation();
              }}
              data-testid="model-search"
            />
          </div>
          <div ref={listRef} className="model-list" role="listbox" id={`${id}-list`} aria-label="Models">
            {groups.length === 0 && <div className="model-empty">No model matches “{query}”.</div>}
            {groups.map((g) => (
              <div key={g.group} role="group" aria-label={g.group} className="model-group" data-testid="model-group">
                <div className="model-group-name" aria-hidden="true">
                  {g.group}
                </div>
                {g.models.map((m) => {
                  const facts = modelFacts(m);
                  return (
                    <div
                      key={keyOf(m)}
                      id={optionId(m)}
                      role="option"
                      aria-selected={keyOf(m) === current}
                      className={`model-option${keyOf(m) === activeKey ? ' is-active' : ''}`}
                      data-key={keyOf(m)}
                      data-testid="model-option"
                      onPointerMove={() => setActiveKey(keyOf(m))}
                      onClick={() => pick(m)}
                    >
                      <span className="model-option-line">
                        <span className="model-option-name">{m.name}</span>
                        {m.name !== m.modelId && <span className="model-option-id">{m.modelId}</span>}
                        {keyOf(m) === current && <Icon name="check" size={13} className="model-option-check" />}
                      </span>
                      {facts.length > 0 && <span className="model-facts">{facts.join(' · ')}</span>}
                    </div>
                  );
                })}
              </div>
            ))}
          </div>
          <div className="model-popover-foot">
            <span className="hint">
              <kbd>↑</kbd> <kbd>↓</kbd> to move, <kbd>Enter</kbd> to pick
            </span>
            <button type="button" className="btn btn-ghost btn-small" onClick={() => void refresh()} disabled={refreshing} data-testid="refresh-models">
              <Icon name="refresh" size={13} /> {refreshing ? 'Refreshing…' : 'Refresh models'}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
