import type { UserMessage } from '../../shared/sessions/index.ts';
import { StoredImages } from './StoredImage.tsx';

type Part = { type: string; text?: string; attachment?: unknown; blob?: string; data?: string; mimeType?: string };

/** A user message's words, its attached text files (by name) and its images (thumbnails that open the viewer). */
export function UserContent({ message, text }: { message: UserMessage; text: string }) {
  if (typeof message.content === 'string') return <div className="plain-text">{text}</div>;
  const parts = message.content as readonly Part[];
  const words = parts
    .filter((p) => p.type === 'text' && typeof p.attachment !== 'string')
    .map((p) => p.text ?? '')
    .join(' ');
  const files = parts.filter((p) => p.type === 'text' && typeof p.attachment === 'string').map((p) => String(p.attachment));
  const images = parts
    .filter((p) => p.type === 'image')
    .map((p) => ({ mimeType: String(p.mimeType ?? ''), ...(p.blob ? { blob: p.blob } : {}), ...(p.data ? { data: p.data } : {}) }));
  return (
    <>
      {words !== '' && <div className="plain-text">{words}</div>}
      {files.length > 0 && (
        <div className="file-attachments">
          {files.map((name, i) => (
            <span key={`${name}${i}`} className="attachment-chip" data-testid="file-attachment">
              <span className="attachment-file" aria-hidden="true">
                TXT
              </span>
              <span className="attachment-name">{name}</span>
            </span>
          ))}
        </div>
      )}
      <StoredImages images={images} label="Attached image" />
    </>
  );
}

/** The hashes of the stored images a user message carries (an edit keeps them in the new version). */
export function storedImageHashes(message: UserMessage): string[] {
  if (typeof message.content === 'string') return [];
  return (message.content as readonly Part[]).flatMap((p) => (p.type === 'image' && typeof p.blob === 'string' ? [p.blob] : []));
}
