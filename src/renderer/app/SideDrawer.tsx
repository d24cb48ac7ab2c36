import { type ReactNode, useEffect, useRef } from 'react';

const FOCUSABLE = 'button:not(:disabled), [href], input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

/**
 * Holds a column beside the chat (Panels, the tree, or the sidebar on a narrow window). On a wide window it
 * is a column of the layout; as an overlay it opens over the chat instead of squeezing it: the focus moves
 * into it, Escape or a click beside it closes it, and the focus goes back to where it was.
 */
export function SideDrawer({
  overlay,
  side,
  label,
  onClose,
  children,
}: {
  overlay: boolean;
  side: 'left' | 'right';
  label: string;
  onClose(): void;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (!overlay) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // The column's content may mount a frame later (a lazy panel): focus what is there once it is.
    const frame = requestAnimationFrame(() => {
      if (box.current?.contains(document.activeElement)) return;
      (box.current?.querySelector<HTMLElement>(FOCUSABLE) ?? box.current)?.focus();
    });
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      // A dialog open above the drawer takes its own Escape.
      if (document.querySelector('.modal-backdrop')) return;
      e.preventDefault();
      close.current();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('keydown', onKey);
      if (opener?.isConnected) opener.focus();
    };
  }, [overlay]);
  if (!overlay) return <div className={`side-column side-${side}`}>{children}</div>;
  return (
    <>
      <div className="drawer-backdrop" aria-hidden="true" onClick={() => close.current()} data-testid="drawer-backdrop" />
      <div ref={box} className={`side-column side-drawer side-${side}`} role="dialog" aria-label={label} tabIndex={-1}>
        {children}
      </div>
    </>
  );
}
