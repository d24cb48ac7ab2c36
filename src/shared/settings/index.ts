export * from './core-settings.ts';
