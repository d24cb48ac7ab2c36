import type { PendingAttachment } from './read-attachment.ts';
import './attachments.css';

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** The message box's attachments, one chip each (a thumbnail or the file's name), each with its own Remove button. */
export function AttachmentChips({ items, onRemove }: { items: readonly PendingAttachment[]; onRemove(id: string): void }) {
  if (items.length === 0) return null;
  return (
    <ul className="attachment-chips" aria-label="Attachments" data-testid="attachment-chips">
      {items.map((a) => (
        <li key={a.id} className="attachment-chip" data-testid="attachment-chip" data-kind={a.kind}>
          {a.kind === 'image' ? (
            <img className="attachment-thumb" src={a.dataUrl} alt="" />
          ) : (
            <span className="attachment-file" aria-hidden="true">
              TXT
            </span>
          )}
          <span className="attachment-name" title={a.name}>
            {a.name}
          </span>
          <span className="attachment-size">{a.kind === 'image' && a.width ? `${a.width}×${a.height}` : size(a.bytes)}</span>
          <button type="button" className="icon-btn attachment-remove" aria-label={`Remove ${a.name}`} title="Remove" onClick={() => onRemove(a.id)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The paper-clip button that opens the file picker (images and text files). */
export function AttachButton({ disabled, onFiles }: { disabled: boolean; onFiles(files: File[]): void }) {
  return (
    <label className={`icon-btn attach-btn${disabled ? ' is-disabled' : ''}`} title="Attach images or text files">
      <svg
        width="16"
        height="16"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        <path d="M21.44 11.05l-9.19 9.19a6 6 0 0 1-8.49-8.49l9.19-9.19a4 4 0 0 1 5.66 5.66l-9.2 9.19a2 2 0 0 1-2.83-2.83l8.49-8.48" />
      </svg>
      <input
        type="file"
        multiple
        className="visually-hidden"
        aria-label="Attach files"
        data-testid="attach-input"
        disabled={disabled}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </label>
  );
}
