import { useCommands } from '../commands/index.ts';
import { ElicitationForm } from './ElicitationForm.tsx';
import { useElicitationQueue } from './use-elicitation-queue.ts';

/**
 * The form a running tool's server asks the user to fill, on that call's card in the open conversation (the
 * oldest one for this tool, if several). Any other form is asked in ElicitationDialog.
 */
export function InlineElicitation({ toolName }: { toolName: string }) {
  const { queue, answer } = useElicitationQueue();
  const sessionId = useCommands()?.sessionId ?? null;
  const question = queue.find((q) => q.toolName === toolName && q.sessionId !== undefined && q.sessionId === sessionId);
  if (!question) return null;
  return (
    <div className="tool-elicitation" role="group" aria-label="This call waits for your answer to a form" data-testid="tool-elicitation">
      <ElicitationForm key={question.id} question={question} onAnswer={(reply) => answer(question, reply)} />
    </div>
  );
}
