export { FirstRun } from './FirstRun.tsx';
export { SandboxNotice } from './SandboxNotice.tsx';
export { SettingsView } from './SettingsView.tsx';
export { groupByCategory } from './plugin-groups.ts';
