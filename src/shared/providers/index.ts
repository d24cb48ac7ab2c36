export * from './provider-stream.ts';
export * from './provider-presets.ts';
