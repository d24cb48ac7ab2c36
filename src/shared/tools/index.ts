export * from './tool-spec.ts';
export { ShellSandbox, ToolCallContext } from './tool-call-context.ts';
export { PROTECTED_PATHS, protectedReason, type ProtectedPath } from './protected-paths.ts';
export { SECRET_PATHS, type SecretPath } from './secret-paths.ts';
export * from './call-signature.ts';
export { OfferedTool, OfferedToolList } from './offered-tool.ts';
