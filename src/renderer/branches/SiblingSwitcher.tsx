import { useEffect, useMemo, useRef } from 'react';
import { Icon } from '../ui/index.ts';
import { plainPreview } from './plain-preview.ts';
import { type VersionMark, versionMarks } from './version-marks.ts';
import './version-marks.css';

/**
 * The switcher a keyboard user just pressed. Switching shows another version, so the message (and this
 * switcher) is drawn anew: the new one takes the focus back, and the user can press again.
 */
let focusAfterSwitch: { siblings: string; button: 'prev' | 'next' } | null = null;

/** What main says of each version, in the order of `ids`. */
export interface SiblingVersion {
  preview: string;
  at?: number | undefined;
  model?: string | undefined;
}

/** A version in words: “…the words that differ…” · time · model (the last where the versions' models differ). */
function describe(mark: VersionMark): string {
  const words = mark.words ? `“${mark.cutBefore ? '…' : ''}${mark.words}${mark.cutAfter ? '…' : ''}”` : '';
  return [words, mark.time, mark.model].filter(Boolean).join(' · ');
}

/**
 * ‹ 2/3 › between the versions of a message (edits of a prompt, regenerations of a reply), and beside it what
 * tells the version shown from the others; the buttons' tooltips say the same of the version they lead to.
 */
export function SiblingSwitcher({
  ids,
  index,
  versions,
  modelShown = false,
  onSwitch,
}: {
  ids: string[];
  index: number;
  versions?: readonly SiblingVersion[] | undefined;
  /** The message names its model already: the mark beside the switcher leaves it out. */
  modelShown?: boolean;
  onSwitch: (id: string) => void;
}) {
  const prev = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const siblings = ids.join(' ');
  const marks = useMemo(
    () =>
      versions && versions.length === ids.length ? versionMarks(versions.map((v) => ({ text: plainPreview(v.preview), at: v.at, model: v.model }))) : null,
    [versions, ids.length],
  );
  const told = (i: number): string | undefined => {
    const mark = marks?.[i];
    return mark ? describe(mark) || undefined : undefined;
  };
  const shown = marks?.[index];
  const facts = shown ? [shown.time, modelShown ? null : shown.model].filter(Boolean).join(' · ') : '';
  useEffect(() => {
    if (focusAfterSwitch?.siblings !== siblings) return;
    (focusAfterSwitch.button === 'prev' ? prev : next).current?.focus();
    focusAfterSwitch = null;
  }, [siblings, index]);
  if (ids.length < 2) return null;
  const go = (button: 'prev' | 'next', to: number) => {
    const id = ids[to];
    if (!id) return;
    focusAfterSwitch = { siblings, button };
    onSwitch(id);
  };
  const list = marks ? marks.map((m, i) => `${i + 1}/${ids.length}  ${describe(m)}`).join('\n') : undefined;
  // At either end the button stays focusable (aria-disabled): a disabled one would drop the focus.
  return (
    <>
      <span className="sibling-switcher" data-testid="sibling-switcher">
        <button
          ref={prev}
          type="button"
          className="icon-btn"
          aria-label="Previous version"
          aria-description={index > 0 ? told(index - 1) : undefined}
          title={index > 0 && told(index - 1) ? `Previous version: ${told(index - 1)}` : undefined}
          aria-disabled={index <= 0 || undefined}
          onClick={() => go('prev', index - 1)}
        >
          <Icon name="chevronLeft" size={14} />
        </button>
        <span className="sibling-count" title={list}>
          {index + 1}/{ids.length}
        </span>
        <button
          ref={next}
          type="button"
          className="icon-btn"
          aria-label="Next version"
          aria-description={index < ids.length - 1 ? told(index + 1) : undefined}
          title={index < ids.length - 1 && told(index + 1) ? `Next version: ${told(index + 1)}` : undefined}
          aria-disabled={index >= ids.length - 1 || undefined}
          onClick={() => go('next', index + 1)}
        >
          <Icon name="chevronRight" size={14} />
        </button>
      </span>
      {shown && (shown.words || facts) && (
        <span className="version-mark" data-testid="version-mark" title={describe(shown)}>
          {shown.words && (
            <>
              {shown.cutBefore && '…'}
              <span className="version-words">{shown.words}</span>
              {shown.cutAfter && '…'}
            </>
          )}
          {shown.words && facts ? ' · ' : ''}
          {facts}
        </span>
      )}
    </>
  );
}
