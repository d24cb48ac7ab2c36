import { useEffect, useRef } from 'react';
import { Icon } from '../ui/index.ts';

/**
 * The switcher a keyboard user just pressed. Switching shows another version, so the message (and this
 * switcher) is drawn anew: the new one takes the focus back, and the user can press again.
 */
let focusAfterSwitch: { siblings: string; button: 'prev' | 'next' } | null = null;

/** ‹ 2/3 › between the versions of a message (edits of a prompt, regenerations of a reply). */
export function SiblingSwitcher({ ids, index, onSwitch }: { ids: string[]; index: number; onSwitch: (id: string) => void }) {
  const prev = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const siblings = ids.join(' ');
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
  // At either end the button stays focusable (aria-disabled): a disabled one would drop the focus.
  return (
    <span className="sibling-switcher" data-testid="sibling-switcher">
      <button
        ref={prev}
        type="button"
        className="icon-btn"
        aria-label="Previous version"
        aria-disabled={index <= 0 || undefined}
        onClick={() => go('prev', index - 1)}
      >
        <Icon name="chevronLeft" size={14} />
      </button>
      <span className="sibling-count">
        {index + 1}/{ids.length}
      </span>
      <button
        ref={next}
        type="button"
        className="icon-btn"
        aria-label="Next version"
        aria-disabled={index >= ids.length - 1 || undefined}
        onClick={() => go('next', index + 1)}
      >
        <Icon name="chevronRight" size={14} />
      </button>
    </span>
  );
}
