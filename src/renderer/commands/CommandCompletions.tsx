import { Icon } from '../ui/index.ts';
import { useCommands } from './commands-context.tsx';
import './commands.css';
import type { SlashCompletion } from './use-slash-completion.ts';

/**
 * Above the composer, over the conversation (the message box never moves): the completion list while a
 * slash command is typed, else a command's output that takes more than a line (/help, a man page) until closed.
 */
export function CommandCompletions({ completion }: { completion: SlashCompletion }) {
  const commands = useCommands();
  const message = commands?.message ?? null;
  if (!completion.open) {
    if (!message || !message.text.includes('\n')) return null;
    return (
      <section className={`command-output status-${message.kind}`} aria-label="Command output" data-testid="status-output">
        <pre className="command-output-text" data-testid="status-popover" tabIndex={0}>
          {message.text}
        </pre>
        <button type="button" className="icon-btn" aria-label="Close the command output" title="Close" onClick={() => commands?.dismissMessage()}>
          <Icon name="x" size={14} />
        </button>
      </section>
    );
  }
  return (
    <div className="slash-menu" role="listbox" aria-label="Command completions" data-testid="command-completions">
      {completion.items.map((item, i) => (
        <button
          key={item.insert}
          type="button"
          role="option"
          aria-selected={i === completion.index}
          className={`slash-item${i === completion.index ? ' is-active' : ''}`}
          data-testid="command-completion"
          // mousedown keeps the focus in the composer
          onMouseDown={(e) => {
            e.preventDefault();
            completion.accept(item);
          }}
        >
          <span className="slash-label">{item.label}</span>
          <span className="slash-help">{item.help}</span>
        </button>
      ))}
      <div className="slash-hint">
        <kbd>Tab</kbd> complete · <kbd>Enter</kbd> run · <kbd>Esc</kbd> hide
      </div>
    </div>
  );
}
