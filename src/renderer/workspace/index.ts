export { WorkspaceButton, folderName } from './WorkspaceButton.tsx';
export { WorkspaceDialog } from './WorkspaceDialog.tsx';
