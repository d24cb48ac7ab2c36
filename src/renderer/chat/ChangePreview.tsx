import type { ChangeView } from './change-preview.ts';
import { bytesText } from './output-preview.ts';
import './change-preview.css';

const plural = (n: number, word: string) => `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;

/** The change in words, around its path: what the file is now (the "before") and what the call puts there. */
function said(view: ChangeView): { lead: string; after: string; tone: 'new' | 'replace' | 'edit' | 'missing' | 'unknown' } {
  const file = view.file;
  const now = file?.bytes === undefined ? '' : `, ${bytesText(file.bytes)} now`;
  const every = view.kind === 'edit' && view.replaceAll ? ', every place the old text occurs' : '';
  if (view.kind === 'edit') {
    if (!file) return { lead: 'Edits', after: every, tone: 'unknown' };
    if (!file.exists) return { lead: 'Edits', after: ', but there is no file there: the edit will fail', tone: 'missing' };
    if (view.occurrences === 0) return { lead: 'Edits', after: `${now}, but the old text is not in it: the edit will fail`, tone: 'missing' };
    if (view.occurrences !== undefined && view.occurrences > 1 && !view.replaceAll)
      return { lead: 'Edits', after: `${now}, but the old text occurs ${view.occurrences} times: the edit will fail`, tone: 'missing' };
    return { lead: 'Edits', after: `${now}${view.line === undefined ? '' : `, at line ${view.line}`}${every}`, tone: 'edit' };
  }
  const what = `${view.size} in ${plural(view.lineCount, 'line')}`;
  if (!file) return { lead: 'Writes', after: `: ${what}`, tone: 'unknown' };
  return file.exists ? { lead: 'Replaces', after: `${now}, with ${what}`, tone: 'replace' } : { lead: 'Creates', after: `, a new file: ${what}`, tone: 'new' };
}

/**
 * The approval dialog's picture of a file change before it runs: for an edit, the lines it takes out and puts
 * in, framed by the file's own lines around them and where it lands (or why it will fail); for a write, whether it creates the file or replaces one that exists (and its
 * size), and the first lines of the new content.
 */
export function ChangePreview({ view }: { view: ChangeView }) {
  const words = said(view);
  return (
    <div className={`change-preview change-${words.tone}`} data-testid="approval-change" data-kind={view.kind}>
      <p className="change-head" data-testid="approval-change-head">
        <strong className="change-lead">{words.lead}</strong> <code>{view.path}</code>
        {words.after}.
      </p>
      {view.kind === 'edit' ? (
        <pre className="change-lines" data-testid="approval-diff">
          {view.lines.map((l, i) => (
            <span key={i} className={`change-line line-${l.mark === '-' ? 'del' : l.mark === '+' ? 'add' : 'ctx'}`} data-mark={l.mark}>
              <span className="change-mark" aria-hidden="true">
                {l.mark === '-' ? '−' : l.mark}
              </span>
              <span className="sr-only">{l.mark === '-' ? 'removed: ' : l.mark === '+' ? 'added: ' : ''}</span>
              {l.text || ' '}
              {'\n'}
            </span>
          ))}
        </pre>
      ) : (
        <pre className="change-lines" data-testid="approval-new-content">
          {view.lines.join('\n')}
        </pre>
      )}
      {view.more > 0 && (
        <p className="change-more muted small" data-testid="approval-change-more">
          {view.kind === 'edit' ? `${plural(view.more, 'more changed line')} not shown.` : `${plural(view.more, 'more line')} not shown.`}
        </p>
      )}
    </div>
  );
}
