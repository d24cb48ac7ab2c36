export { SiblingSwitcher } from './SiblingSwitcher.tsx';
export { TreeView } from './TreeView.tsx';
