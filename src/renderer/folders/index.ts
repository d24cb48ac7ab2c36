// Folder paths in the window: a field that browses the disk as you type and offers the recent folders.
export { FolderField, type FolderFieldProps } from './FolderField.tsx';
