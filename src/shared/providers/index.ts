export * from './provider-stream.ts';
