export * from './tool-spec.ts';
