export * from './command-view.ts';
export type * from './command-registrar.ts';
