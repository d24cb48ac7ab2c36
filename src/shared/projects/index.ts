export * from './project.ts';
