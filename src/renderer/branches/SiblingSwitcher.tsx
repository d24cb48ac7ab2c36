import { Icon } from '../ui/Icon.tsx';

/** ‹ 2/3 › between the versions of a message (edits of a prompt, regenerations of a reply). */
export function SiblingSwitcher({ ids, index, onSwitch }: { ids: string[]; index: number; onSwitch: (id: string) => void }) {
  if (ids.length < 2) return null;
  return (
    <span className="sibling-switcher" data-testid="sibling-switcher">
      <button type="button" className="icon-btn" aria-label="Previous version" disabled={index <= 0} onClick={() => onSwitch(ids[index - 1]!)}>
        <Icon name="chevronLeft" size={14} />
      </button>
      <span className="sibling-count">
        {index + 1}/{ids.length}
      </span>
      <button type="button" className="icon-btn" aria-label="Next version" disabled={index >= ids.length - 1} onClick={() => onSwitch(ids[index + 1]!)}>
        <Icon name="chevronRight" size={14} />
      </button>
    </span>
  );
}
