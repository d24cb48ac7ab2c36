export * from './tool-spec.ts';
export * from './call-signature.ts';
