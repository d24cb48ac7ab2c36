import { useEffect, useId, useState } from 'react';
import type { SubagentSettings } from '../../shared/subagents/index.ts';
import { useApi } from '../api/index.ts';
import { useSettingsChannel } from '../server-state/index.ts';
import './subagents-section.css';

const KEY = ['subagentSettings'] as const;

type Limit = 'maxParallel' | 'maxPerTurn' | 'maxIterations' | 'wallTimeMinutes' | 'budgetTokens';

const LIMITS: readonly { key: Limit; label: string; min: number; max: number; none?: string }[] = [
  { key: 'maxParallel', label: 'At once', min: 1, max: 16 },
  { key: 'maxPerTurn', label: 'Per message', min: 1, max: 256 },
  { key: 'maxIterations', label: 'Model calls each', min: 1, max: 1000 },
  { key: 'wallTimeMinutes', label: 'Minutes each', min: 1, max: 1440 },
  { key: 'budgetTokens', label: 'Tokens each', min: 0, max: 1_000_000_000, none: 'no limit' },
];

/** The task tool's switch and the limits every child agent runs under. */
export function SubagentsSection() {
  const api = useApi();
  const labelId = useId();
  const { data, save } = useSettingsChannel(
    KEY,
    { read: 'the child agent settings', write: 'the child agent settings' },
    () => api.call('subagents.settings', {}),
    (changes: Partial<SubagentSettings>) => api.call('subagents.setSettings', changes),
  );
  const on = data?.enabled ?? false;
  return (
    <section className="settings-section" aria-labelledby="settings-subagents" data-testid="settings-subagents">
      <h2 id="settings-subagents">Child agents</h2>
      <div className="plugin-list">
        <div className="plugin-row">
          <div className="plugin-main">
            <strong id={labelId}>Let the agent hand work to child agents</strong>
            <p className="plugin-desc">
              With the task tool the agent starts child agents, each in a fresh context of its own, for broad searches and independent subtasks; their rows show
              in the tool card. They run under this conversation’s folder, policy and sandbox. Also /set agent.subagents on|off.
            </p>
          </div>
          <button
            type="button"
            role="switch"
            aria-checked={on}
            aria-labelledby={labelId}
            className={`switch${on ? ' is-on' : ''}`}
            disabled={data === undefined}
            onClick={() => void save({ enabled: !on })}
            data-testid="subagents-enabled"
          >
            <span />
          </button>
        </div>
      </div>
      {data && (
        <div className="subagent-limits">
          {LIMITS.map((limit) => (
            <LimitField key={limit.key} limit={limit} value={data[limit.key]} onSave={(value) => void save({ [limit.key]: value })} />
          ))}
        </div>
      )}
    </section>
  );
}

/** A limit's field; where the limit can be off (`none`), 0 stands for off and shows as an empty field. */
function LimitField({ limit, value, onSave }: { limit: (typeof LIMITS)[number]; value: number; onSave: (value: number) => void }) {
  const id = useId();
  const shown = (v: number) => (limit.none && v === 0 ? '' : String(v));
  const [text, setText] = useState(shown(value));
  useEffect(() => setText(limit.none && value === 0 ? '' : String(value)), [value, limit.none]);
  const commit = () => {
    const typed = text.trim();
    const n = typed === '' && limit.none ? 0 : Number(typed);
    if (typed === '' && !limit.none) return setText(shown(value));
    if (!Number.isInteger(n) || n < limit.min || n > limit.max) return setText(shown(value));
    if (n !== value) onSave(n);
  };
  return (
    <label className="field" htmlFor={id}>
      {limit.label}
      <input
        id={id}
        type="number"
        min={limit.min}
        max={limit.max}
        step={1}
        inputMode="numeric"
        placeholder={limit.none}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        data-testid={`subagents-${limit.key}`}
      />
    </label>
  );
}
