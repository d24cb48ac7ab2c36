export { CopyButton } from './CopyButton.tsx';
export { GlyphText } from './GlyphText.tsx';
export { Icon } from './Icon.tsx';
export { Modal, type ModalProps } from './Modal.tsx';
export { applyTheme, loadTheme, type ThemeChoice } from './theme.ts';
export { describeError, type Toast, ToastProvider, useToasts } from './Toasts.tsx';
