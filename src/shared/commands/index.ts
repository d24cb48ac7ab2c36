export * from './command-view.ts';
