export { FirstRun } from './FirstRun.tsx';
export { SandboxNotice } from './SandboxNotice.tsx';
export { SettingsView } from './SettingsView.tsx';
export type { SettingsPage } from './settings-pages.ts';
export { groupByCategory } from './plugin-groups.ts';
