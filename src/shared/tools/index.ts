export * from './tool-spec.ts';
export { ToolCallContext } from './tool-call-context.ts';
export * from './call-signature.ts';
