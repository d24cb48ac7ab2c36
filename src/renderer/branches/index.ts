export { SiblingSwitcher, type SiblingVersion } from './SiblingSwitcher.tsx';
export { TreeView } from './TreeView.tsx';
