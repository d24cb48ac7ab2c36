export { SettingsService } from './settings-service.ts';
export type { SettingChange, SettingsServiceOptions, SettingsStore } from './settings-service.ts';
