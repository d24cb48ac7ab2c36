export * from './attachment.ts';
export * from './image-limits.ts';
