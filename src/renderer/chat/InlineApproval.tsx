import { useState } from 'react';
import type { ApprovalAnswer } from '../../shared/agent/index.ts';
import { Icon } from '../ui/index.ts';
import { useApprovalQueue } from './use-approval-queue.ts';

/**
 * A waiting call's own answer, on its card: why it asks, Deny and Allow once (the dialog has the "always"
 * answers). Shown while the call waits; answered here or in the dialog, it goes from both.
 */
export function InlineApproval({ toolCallId }: { toolCallId: string }) {
  const { queue, answer } = useApprovalQueue();
  const [busy, setBusy] = useState(false);
  const question = queue.find((q) => q.toolCallId === toolCallId);
  if (!question) return null;
  const reply = async (decision: ApprovalAnswer) => {
    setBusy(true);
    try {
      await answer(question, decision);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="tool-approval" role="group" aria-label="This call waits for your answer" data-testid="tool-approval">
      <Icon name="alert" size={14} />
      <span className="tool-approval-reason">{question.reason}</span>
      <span className="tool-approval-actions">
        <button type="button" className="btn btn-small btn-danger-ghost" disabled={busy} onClick={() => void reply('deny')} data-testid="tool-approval-deny">
          Deny
        </button>
        <button type="button" className="btn btn-small btn-primary" disabled={busy} onClick={() => void reply('once')} data-testid="tool-approval-once">
          Allow once
        </button>
      </span>
    </div>
  );
}
