import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Icon } from '../ui/index.ts';
import type { SiblingMap } from '../../shared/api/index.ts';
import { type MessageActions, MessageItem } from './MessageItem.tsx';
import type { TranscriptItem } from './transcript-model.ts';

interface Props {
  items: TranscriptItem[];
  siblings: SiblingMap;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  actions: MessageActions;
  /** Changes when the branch is read afresh: the view jumps to its end. */
  generation: number;
  /** A run is on: scrolled up, the user is offered a way back to the newest words. */
  running?: boolean;
}

const NEAR_BOTTOM_PX = 64;
const NEAR_TOP_PX = 600;

/**
 * The branch as a virtualized list: only what is on screen is in the DOM. Stays pinned to the end while
 * the user is there (streaming), loads older entries near the top, and keeps the view still when they
 * arrive above it.
 */
export function Transcript({ items, siblings, hasOlder, loadingOlder, onLoadOlder, actions, generation, running = false }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  /** The same as `pinned`, for drawing: false shows "Jump to latest" while a run goes on. */
  const [atEnd, setAtEnd] = useState(true);
  const firstKey = useRef<string | null>(null);
  const totalBefore = useRef(0);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 120,
    overscan: 6,
    getItemKey: (index) => items[index]!.key,
    paddingStart: 24,
    paddingEnd: 24,
  });

  const totalSize = virtualizer.getTotalSize();

  // Older entries were put in front: move the scroll position by what they added, so nothing jumps.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const key = items[0]?.key ?? null;
    if (el && firstKey.current !== null && key !== firstKey.current && items.some((i) => i.key === firstKey.current) && !pinned.current) {
      el.scrollTop += totalSize - totalBefore.current;
    }
    firstKey.current = key;
    totalBefore.current = totalSize;
  }, [items, totalSize]);

  // At the end (opening a session, streaming while the user watches): stay at the end. Only when the
  // content's height changed — reading scrollHeight forces a layout, which a delta on the same line
  // does not need.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [totalSize]);

  useLayoutEffect(() => {
    pinned.current = true;
    setAtEnd(true);
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [generation]);

  const jumpToLatest = useCallback(() => {
    pinned.current = true;
    setAtEnd(true);
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
    setAtEnd(pinned.current);
    if (el.scrollTop < NEAR_TOP_PX && hasOlder && !loadingOlder) onLoadOlder();
  }, [hasOlder, loadingOlder, onLoadOlder]);

  // A short first page may not fill the view: keep loading until it scrolls or the root is reached.
  useEffect(() => {
    const el = scrollRef.current;
    if (el && hasOlder && !loadingOlder && el.scrollHeight <= el.clientHeight + NEAR_TOP_PX) onLoadOlder();
  }, [hasOlder, loadingOlder, onLoadOlder, totalSize]);

  const virtualItems = virtualizer.getVirtualItems();
  const rows = useMemo(
    () =>
      virtualItems.map((v) => {
        const item = items[v.index]!;
        return (
          <div key={v.key} data-index={v.index} ref={virtualizer.measureElement} className="row" style={{ transform: `translateY(${v.start}px)` }}>
            <MessageItem item={item} siblings={siblings[item.key]} actions={actions} />
          </div>
        );
      }),
    [virtualItems, items, siblings, actions, virtualizer.measureElement],
  );

  return (
    <div className="transcript" ref={scrollRef} onScroll={onScroll} data-testid="transcript" role="log" aria-live="polite">
      {hasOlder && <div className="older-hint">{loadingOlder ? 'Loading older messages…' : ' '}</div>}
      <div className="transcript-inner" style={{ height: totalSize }}>
        {rows}
      </div>
      {running && !atEnd && (
        <button type="button" className="jump-latest" onClick={jumpToLatest} data-testid="jump-latest">
          <Icon name="arrowDown" size={14} /> Jump to latest
        </button>
      )}
    </div>
  );
}
