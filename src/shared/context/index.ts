export * from './compaction-schemas.ts';
