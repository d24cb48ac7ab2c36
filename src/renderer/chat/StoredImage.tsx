import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { createPortal } from 'react-dom';
import { useApi } from '../api/index.ts';
import { Modal } from '../ui/index.ts';
import './attachments.css';

/** A stored image's data URL, read once per hash (a blob never changes: its name is its contents' hash). */
function useBlob(hash: string) {
  const api = useApi();
  return useQuery({ queryKey: ['blob', hash], queryFn: () => api.call('blobs.get', { hash }), staleTime: Number.POSITIVE_INFINITY, gcTime: 5 * 60_000 });
}

/** The images of a message or a tool result as thumbnails; each opens the viewer. */
export function StoredImages({ images, label }: { images: readonly { blob?: string; data?: string; mimeType: string }[]; label: string }) {
  if (images.length === 0) return null;
  return (
    <div className="stored-images" data-testid="stored-images">
      {images.map((image, i) => (
        <StoredImage key={`${image.blob ?? ''}${i}`} image={image} label={images.length === 1 ? label : `${label} ${i + 1} of ${images.length}`} />
      ))}
    </div>
  );
}

function StoredImage({ image, label }: { image: { blob?: string; data?: string; mimeType: string }; label: string }) {
  const blob = useBlob(image.blob ?? '');
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const src = image.data !== undefined ? `data:${image.mimeType};base64,${image.data}` : image.blob ? blob.data?.dataUrl : undefined;
  if (!src) {
    return (
      <span className="image-thumb image-thumb-missing" data-testid="image-thumb">
        {blob.isError ? 'Image not stored' : '…'}
      </span>
    );
  }
  return (
    <>
      <button type="button" className="image-thumb" data-testid="image-thumb" aria-label={`Open ${label}`} onClick={() => setOpen(true)}>
        <img src={src} alt={label} />
      </button>
      {/* Drawn over the window, not inside the transcript's moving rows (a transformed row would hold a fixed backdrop). */}
      {open &&
        createPortal(
          <Modal className="modal image-viewer" labelledBy={titleId} testId="image-viewer" onEscape={() => setOpen(false)} onBackdrop={() => setOpen(false)}>
            <div className="image-viewer-head">
              <h2 id={titleId}>{label}</h2>
              <button type="button" className="icon-btn" aria-label="Close" autoFocus onClick={() => setOpen(false)}>
                ×
              </button>
            </div>
            <img className="image-viewer-img" src={src} alt={label} />
          </Modal>,
          document.body,
        )}
    </>
  );
}
