export { StatusBar } from './StatusBar.tsx';
export { useStatusBar } from './use-status-bar.ts';
