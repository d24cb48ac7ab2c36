import './commands.css';
import type { SlashCompletion } from './use-slash-completion.ts';

/** The completion list above the composer while a slash command is typed. */
export function CommandCompletions({ completion }: { completion: SlashCompletion }) {
  if (!completion.open) return null;
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
