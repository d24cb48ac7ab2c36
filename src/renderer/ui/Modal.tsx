import { type FormEvent, type KeyboardEvent, type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** A dialog names itself: by the id of its heading, or by a label where it has none. */
type Name = { labelledBy: string; label?: never } | { label: string; labelledBy?: never };

export type ModalProps = Name & {
  /** `alertdialog` for a question the user must answer before going on. */
  role?: 'dialog' | 'alertdialog';
  /** The dialog's own classes (`modal …`); the theme's colours follow the light and dark themes. */
  className: string;
  backdropClassName?: string;
  describedBy?: string;
  testId?: string;
  /**
   * Escape, with the key's default prevented so nothing underneath (Settings) closes on it too. Without it
   * the dialog's own `onKeyDown` decides what Escape does.
   */
  onEscape?: () => void;
  /** A press on the backdrop, outside the dialog. Without it the backdrop does nothing. */
  onBackdrop?: () => void;
  /** Keys the dialog handles itself; runs after the focus trap and `onEscape`. */
  onKeyDown?: (e: KeyboardEvent<HTMLElement>) => void;
  /** Renders the dialog as a form (Enter in a field submits it). */
  onSubmit?: (e: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
};

/**
 * The one modal dialog: a backdrop, the dialog named for assistive technology, focus kept inside it (Tab
 * and Shift+Tab wrap), Escape, and the focus given back to where it was when the dialog closes. What has
 * the focus first is the dialog's choice (autoFocus or a ref); where nothing inside takes it, the dialog does.
 */
export function Modal({
  role = 'dialog',
  className,
  backdropClassName,
  labelledBy,
  label,
  describedBy,
  testId,
  onEscape,
  onBackdrop,
  onKeyDown,
  onSubmit,
  children,
}: ModalProps) {
  const box = useRef<HTMLElement>(null);
  // Read while rendering, before an autoFocus inside moves the focus.
  const [before] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));

  useEffect(() => {
    const dialog = box.current;
    if (dialog && !dialog.contains(document.activeElement)) dialog.focus();
    return () => {
      // Only a focus lost with the dialog goes back; one the dialog's action moved elsewhere stays there.
      const now = document.activeElement;
      if (before?.isConnected && (now === null || now === document.body || dialog?.contains(now))) before.focus();
    };
  }, [before]);

  const keyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Tab' && !e.defaultPrevented && box.current) {
      const inside = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.tabIndex >= 0 && el.getClientRects().length > 0);
      const first = inside[0];
      const last = inside.at(-1);
      const at = document.activeElement;
      if (!first || !last) {
        e.preventDefault();
      } else if (e.shiftKey && (at === first || at === box.current)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && at === last) {
        e.preventDefault();
        first.focus();
      }
    }
    if (e.key === 'Escape' && onEscape) {
      e.preventDefault();
      onEscape();
      return;
    }
    onKeyDown?.(e);
  };

  const common = {
    className,
    role,
    'aria-modal': true,
    'aria-labelledby': labelledBy,
    'aria-label': label,
    'aria-describedby': describedBy,
    'data-testid': testId,
    tabIndex: -1,
    onKeyDown: keyDown,
  };
  return (
    <div
      className={backdropClassName ? `modal-backdrop ${backdropClassName}` : 'modal-backdrop'}
      onMouseDown={(e) => onBackdrop && e.target === e.currentTarget && onBackdrop()}
    >
      {onSubmit ? (
        <form ref={box as RefObject<HTMLFormElement>} {...common} onSubmit={onSubmit}>
          {children}
        </form>
      ) : (
        <div ref={box as RefObject<HTMLDivElement>} {...common}>
          {children}
        </div>
      )}
    </div>
  );
}
