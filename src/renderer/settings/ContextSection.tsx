import { useEffect, useId, useState } from 'react';
import type { ContextMasking } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { useSettingsChannel } from '../server-state/index.ts';
import './context-section.css';

const KEY = ['contextMasking'] as const;
/** What switching masking back on restores when it was off (the core setting's default). */
const DEFAULT_AFTER = 40_000;
const MAX = 10_000_000;

/** How old tool output is hidden from each model request: a switch, the tokens kept whole and the batch size. */
export function ContextSection() {
  const api = useApi();
  const labelId = useId();
  const { data, save } = useSettingsChannel(
    KEY,
    { read: 'how old tool output is hidden', write: 'how old tool output is hidden' },
    () => api.call('context.masking', {}),
    (changes: Partial<ContextMasking>) => api.call('context.setMasking', changes),
  );
  const on = (data?.maskAfterTokens ?? DEFAULT_AFTER) > 0;
  return (
    <section className="settings-section" aria-labelledby="settings-context" data-testid="settings-context">
      <h2 id="settings-context">Long conversations</h2>
      <div className="plugin-list">
        <div className="plugin-row">
          <div className="plugin-main">
            <strong id={labelId}>Hide old tool output from the model</strong>
            <p className="plugin-desc">
              Tool output older than the newest tokens below is sent as a short note naming the call, its size and its entry; the conversation keeps it whole.
              It is hidden a batch at a time so the provider’s prompt cache holds. Also /set context.maskAfterTokens.
            </p>
          </div>
          <button
            type="button"
            role="switch"
            aria-checked={on}
            aria-labelledby={labelId}
            className={`switch${on ? ' is-on' : ''}`}
            disabled={data === undefined}
            onClick={() => void save({ maskAfterTokens: on ? 0 : DEFAULT_AFTER })}
            data-testid="context-masking-enabled"
          >
            <span />
          </button>
        </div>
      </div>
      {data && on && (
        <div className="context-masking-fields">
          <TokensField
            label="Newest tokens kept whole"
            value={data.maskAfterTokens}
            min={1}
            onSave={(v) => void save({ maskAfterTokens: v })}
            testId="context-mask-after"
          />
          <TokensField
            label="Hidden in batches of"
            value={data.maskBatchTokens}
            min={0}
            onSave={(v) => void save({ maskBatchTokens: v })}
            testId="context-mask-batch"
          />
        </div>
      )}
    </section>
  );
}

function TokensField({ label, value, min, onSave, testId }: { label: string; value: number; min: number; onSave: (value: number) => void; testId: string }) {
  const id = useId();
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const commit = () => {
    const n = Number(text.trim());
    if (text.trim() === '' || !Number.isInteger(n) || n < min || n > MAX) return setText(String(value));
    if (n !== value) onSave(n);
  };
  return (
    <label className="field" htmlFor={id}>
      {label}
      <input
        id={id}
        type="number"
        min={min}
        max={MAX}
        step={1000}
        inputMode="numeric"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        data-testid={testId}
      />
    </label>
  );
}
