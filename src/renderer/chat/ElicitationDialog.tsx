import { Modal } from '../ui/index.ts';
import { ElicitationForm } from './ElicitationForm.tsx';
import { useElicitationQueue } from './use-elicitation-queue.ts';

/**
 * Forms plugins ask the user to fill that are not on a card in view: one asked outside a tool call, or by a
 * call of another conversation than the open one. One at a time, oldest first; Escape cancels it. A form of
 * the open conversation's running call is answered on its tool card instead (InlineElicitation).
 */
export function ElicitationDialog({ openSessionId }: { openSessionId: string | null }) {
  const { queue, answer } = useElicitationQueue();
  const current = queue.find((q) => !(q.toolName && q.sessionId !== undefined && q.sessionId === openSessionId));
  if (!current) return null;
  return (
    <Modal
      className="modal elicit-dialog"
      labelledBy="elicitation-title"
      testId="elicitation-dialog"
      onEscape={() => void answer(current, { action: 'cancel' })}
    >
      <ElicitationForm key={current.id} question={current} headingId="elicitation-title" autoFocus onAnswer={(reply) => answer(current, reply)} />
    </Modal>
  );
}
