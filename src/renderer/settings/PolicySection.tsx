import { useEffect, useState } from 'react';
import type { PolicyMode, PolicyRule } from '../../shared/agent/index.ts';
import type { PolicyView } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { Icon } from '../ui/Icon.tsx';
import { useToasts } from '../ui/Toasts.tsx';

const MODES: { mode: PolicyMode; title: string; text: string }[] = [
  { mode: 'read', title: 'Read', text: 'Only read-only tools run.' },
  { mode: 'write', title: 'Write', text: 'Changes inside the workspace run; anything else asks.' },
  { mode: 'yolo', title: 'Yolo', text: 'Every tool runs without asking.' },
];

function describeRule(rule: PolicyRule): string {
  const what = rule.tool && rule.folder ? `${rule.tool} in ${rule.folder}` : (rule.tool ?? `anything in ${rule.folder}`);
  return what;
}

/** The tool policy: this conversation's mode, and the stored allow/deny rules (list, remove). */
export function PolicySection({ sessionId }: { sessionId: string | null }) {
  const api = useApi();
  const toasts = useToasts();
  const [view, setView] = useState<PolicyView | null>(null);

  useEffect(() => {
    let live = true;
    const load = () =>
      api.call('policy.get', { sessionId }).then(
        (v) => live && setView(v),
        (e: unknown) => toasts.error('Could not read the tool policy', e),
      );
    void load();
    const off = api.on('policy.changed', (e) => {
      if (e.sessionId === null || e.sessionId === sessionId) void load();
    });
    return () => {
      live = false;
      off();
    };
  }, [api, sessionId, toasts]);

  const setMode = async (mode: PolicyMode) => {
    if (!sessionId) return;
    try {
      setView(await api.call('policy.setMode', { sessionId, mode }));
    } catch (e) {
      toasts.error('Could not change the policy', e);
    }
  };
  const remove = async (index: number, rule: PolicyRule) => {
    try {
      setView(await api.call('policy.removeRule', { index, rule, sessionId }));
    } catch (e) {
      toasts.error('Could not remove the rule', e);
    }
  };

  return (
    <section className="settings-section" aria-labelledby="settings-policy" data-testid="settings-policy">
      <h2 id="settings-policy">Tool policy</h2>
      <p className="muted settings-lead">{sessionId ? 'How freely tools run in this conversation.' : 'Open a conversation to set its mode.'}</p>
      <div className="mode-grid" role="radiogroup" aria-label="Policy mode">
        {MODES.map((m) => (
          <button
            key={m.mode}
            type="button"
            role="radio"
            aria-checked={view?.mode === m.mode}
            className={`mode-card${view?.mode === m.mode ? ' is-selected' : ''}`}
            disabled={!sessionId}
            onClick={() => void setMode(m.mode)}
            data-testid={`policy-${m.mode}`}
          >
            <strong>{m.title}</strong>
            <span>{m.text}</span>
          </button>
        ))}
      </div>
      <h3>Stored rules</h3>
      {view && view.rules.length === 0 && <p className="hint">No stored rules. Deny rules apply in every mode; allow rules let a tool or folder run without asking.</p>}
      <div className="rule-list">
        {view?.rules.map((rule, i) => (
          <div key={`${i}:${rule.effect}:${rule.tool ?? ''}:${rule.folder ?? ''}`} className="rule-row" data-testid="policy-rule">
            <span className={`chip ${rule.effect === 'deny' ? 'chip-error' : 'chip-ok'}`}>{rule.effect}</span>
            <span className="rule-text">{describeRule(rule)}</span>
            <button type="button" className="icon-btn" aria-label={`Remove the rule ${rule.effect} ${describeRule(rule)}`} onClick={() => void remove(i, rule)}>
              <Icon name="trash" size={14} />
            </button>
          </div>
        ))}
      </div>
    </section>
  );
}
