export * from './core-settings.ts';
export * from './settings-index.ts';
