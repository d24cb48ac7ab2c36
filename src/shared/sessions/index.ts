export * from './entry.ts';
export * from './session-summary.ts';
export * from './tree-node.ts';
export * from './transcript-page.ts';
export type { ModelContext } from './model-context.ts';
export * from './entry-preview.ts';
export * from './session-integrity.ts';
export * from './message-guards.ts';
export * from './counts-as-message.ts';
