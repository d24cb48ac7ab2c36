import { useState } from 'react';

interface Props {
  id?: string;
  value: string;
  onChange(value: string): void;
  placeholder?: string;
  /** What the field holds ("API key"): the show/hide button says whose text it shows. */
  label: string;
  disabled?: boolean;
  testId?: string;
}

/** A field for a key or a password, hidden as typed, with a button that shows or hides what was typed. */
export function SecretInput({ id, value, onChange, placeholder, label, disabled, testId }: Props) {
  const [shown, setShown] = useState(false);
  return (
    <span className="secret-input">
      <input
        id={id}
        className="input"
        type={shown ? 'text' : 'password'}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
        data-testid={testId}
      />
      <button
        type="button"
        className="btn btn-small btn-ghost"
        aria-pressed={shown}
        aria-label={shown ? `Hide the ${label}` : `Show the ${label}`}
        onClick={() => setShown((s) => !s)}
        data-testid="secret-toggle"
      >
        {shown ? 'Hide' : 'Show'}
      </button>
    </span>
  );
}
