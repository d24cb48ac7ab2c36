import { errorInWords } from './error-in-words.ts';

/** An error's words, with the technical text under a "Details" disclosure when the words left part of it out. */
export function ErrorText({ text }: { text: string }) {
  const { summary, details } = errorInWords(text);
  return (
    <span className="error-text">
      <span data-testid="error-summary">{summary}</span>
      {details && (
        <details className="error-details">
          <summary>Details</summary>
          <code data-testid="error-details">{details}</code>
        </details>
      )}
    </span>
  );
}
