export { ChatView } from './ChatView.tsx';
export type { ComposerHandle } from './Composer.tsx';
export { ApprovalDialog } from './ApprovalDialog.tsx';
export { ElicitationDialog } from './ElicitationDialog.tsx';
export { warmUpMarkdown } from './markdown.ts';
export { PromptViewer } from './PromptViewer.tsx';
