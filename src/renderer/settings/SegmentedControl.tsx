import { useRef } from 'react';

interface Option<T extends string> {
  value: T;
  label: string;
  testId?: string;
}

interface Props<T extends string> {
  /** The group's accessible name. */
  label: string;
  options: readonly Option<T>[];
  value: T;
  onChange(value: T): void;
  disabled?: boolean;
  testId?: string;
}

/**
 * One choice among a few, in the app's own control: a row of buttons acting as a radio group (arrow keys
 * move the choice, Tab leaves the group), instead of the browser's radios.
 */
export function SegmentedControl<T extends string>({ label, options, value, onChange, disabled, testId }: Props<T>) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (from: number, step: number) => {
    const next = (from + step + options.length) % options.length;
    onChange(options[next]!.value);
    buttons.current[next]?.focus();
  };
  return (
    <div className="segmented" role="radiogroup" aria-label={label} data-testid={testId}>
      {options.map((o, i) => (
        <button
          key={o.value}
          ref={(el) => {
            buttons.current[i] = el;
          }}
          type="button"
          role="radio"
          aria-checked={value === o.value}
          tabIndex={value === o.value ? 0 : -1}
          className={`segmented-option${value === o.value ? ' is-on' : ''}`}
          disabled={disabled}
          onClick={() => onChange(o.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight' || e.key === 'ArrowDown') {
              e.preventDefault();
              move(i, 1);
            } else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') {
              e.preventDefault();
              move(i, -1);
            }
          }}
          data-testid={o.testId}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
