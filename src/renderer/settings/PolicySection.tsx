import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { PolicyMode, StoredPolicyRule } from '../../shared/agent/index.ts';
import type { PolicyView } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { useToasts } from '../ui/index.ts';
import { PolicyRuleList } from './PolicyRuleList.tsx';

// What each mode does, said plainly; the same in every mode: no tool touches Amber's data folder, and every
// command runs in the sandbox.
const MODES: { mode: PolicyMode; title: string; text: string }[] = [
  {
    mode: 'read',
    title: 'Read',
    text: 'The model can look but not change: tools that only read run; anything that would change a file is refused. Commands run in the sandbox with files read-only and no network.',
  },
  {
    mode: 'write',
    title: 'Write',
    text: 'Changes inside the workspace folder run without asking; a change anywhere else, a protected file (such as .git or package.json) or a risky command asks you first. Commands run in the sandbox; the network follows your setting.',
  },
  {
    mode: 'yolo',
    title: 'Yolo',
    text: 'Almost everything runs without asking. It still asks before a destructive command (such as rm -rf or git reset --hard), a command it cannot check, or one that names a folder outside the workspace, and before changing a protected file. Commands still run in the sandbox, with the network on.',
  },
];

/**
 * The tool policy: this conversation's mode, the stored allow/deny rules with where they came from (list,
 * remove; an "always" answer adds one live), how long a question waits before it is denied, and the user
 * plugins whose read-only tools are believed only once confirmed here (confirm, revoke).
 */
export function PolicySection({ sessionId }: { sessionId: string | null }) {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  // Read again on policy.changed, and when a plugin switched on or off brings or takes its read-only claims.
  const policy = useQuery({ queryKey: serverKeys.policy(sessionId), queryFn: () => api.call('policy.get', { sessionId }), staleTime: 0 });
  const view: PolicyView | null = policy.data ?? null;
  const setView = (next: PolicyView) => queries.setQueryData(serverKeys.policy(sessionId), next);
  const { error } = policy;
  useEffect(() => {
    if (error) toasts.error('Could not read the tool policy', error);
  }, [error, toasts]);

  const setMode = async (mode: PolicyMode) => {
    if (!sessionId) return;
    try {
      setView(await api.call('policy.setMode', { sessionId, mode }));
    } catch (e) {
      toasts.error('Could not change the policy', e);
    }
  };
  const confirmReadOnly = async (pluginId: string, confirmed: boolean) => {
    try {
      setView(await api.call('policy.confirmReadOnly', { pluginId, confirmed, sessionId }));
    } catch (e) {
      toasts.error(confirmed ? 'Could not confirm the read-only tools' : 'Could not revoke the confirmation', e);
    }
  };
  const remove = async (rule: StoredPolicyRule) => {
    try {
      setView(await api.call('policy.removeRule', { id: rule.id, sessionId }));
    } catch (e) {
      toasts.error('Could not remove the rule', e);
      void policy.refetch();
    }
  };
  const stored = view?.approvalTimeoutSeconds ?? null;
  const [timeout, setTimeoutText] = useState<string | null>(null);
  const timeoutText = timeout ?? (stored === null ? '' : String(stored));
  const saveTimeout = async () => {
    if (timeout === null) return;
    const saved = timeout;
    const seconds = saved.trim() === '' ? null : Number(saved);
    try {
      setView(await api.call('policy.setApprovalTimeout', { seconds, sessionId }));
      // What the user typed while the save was on its way is kept: only the saved text gives way to the stored value.
      setTimeoutText((current) => (current === saved ? null : current));
    } catch (e) {
      toasts.error('Could not set how long a question waits', e);
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
      <h3>Questions</h3>
      <form
        className="timeout-row"
        onSubmit={(e) => {
          e.preventDefault();
          void saveTimeout();
        }}
      >
        <label htmlFor="approval-timeout">Deny a question no one answers within</label>
        <input
          id="approval-timeout"
          data-testid="approval-timeout"
          type="number"
          min={1}
          max={86_400}
          step={1}
          inputMode="numeric"
          placeholder="off"
          value={timeoutText}
          onChange={(e) => setTimeoutText(e.target.value)}
          onBlur={() => void saveTimeout()}
        />
        <span>seconds</span>
        <span className="hint">Empty: a question waits until it is answered. A run started without a window (amber run) never waits.</span>
      </form>
      <h3>Stored rules</h3>
      {view && view.rules.length === 0 && (
        <p className="hint">
          No stored rules. “Always” answers are kept here; deny rules apply in every mode; allow rules let a tool, folder or command run without asking.
        </p>
      )}
      {view && <PolicyRuleList rules={view.rules} titles={view.ruleSessions} onRemove={(rule) => void remove(rule)} />}
      <h3>Read-only tools of your plugins</h3>
      {view && view.readOnlyClaims.length === 0 && (
        <p className="hint">None of your plugins has a tool that says it only reads. Bundled plugins' read-only tools are trusted as they are.</p>
      )}
      {view && view.readOnlyClaims.length > 0 && (
        <p className="hint">
          A plugin you installed says these tools only read. Until you confirm it, they count as tools that can change things: read mode refuses them and write
          mode may ask.
        </p>
      )}
      <div className="rule-list">
        {view?.readOnlyClaims.map((claim) => (
          <div key={claim.pluginId} className="rule-row" data-testid="readonly-claim">
            <span className={`chip ${claim.confirmed ? 'chip-ok' : 'chip-error'}`}>{claim.confirmed ? 'confirmed' : 'not confirmed'}</span>
            <span className="rule-text">
              {claim.name}: {claim.tools.length > 0 ? claim.tools.join(', ') : 'no tools active now'}
            </span>
            <button
              type="button"
              className="btn"
              onClick={() => void confirmReadOnly(claim.pluginId, !claim.confirmed)}
              aria-label={
                claim.confirmed
                  ? `Revoke: treat ${claim.name}'s read-only tools as write tools again`
                  : `Confirm that ${claim.name}'s read-only tools only read`
              }
            >
              {claim.confirmed ? 'Revoke' : 'Confirm they only read'}
            </button>
          </div>
        ))}
      </div>
    </section>
  );
}
