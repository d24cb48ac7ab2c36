// The workspace feature: each conversation's folder, checked when set, read by tools and the policy.
export { checkWorkspace, expandHome, type WorkspaceCheck, type WorkspaceLimits } from './workspace-check.ts';
export { DEFAULT_WORKSPACE_NAME, WorkspaceService, type WorkspaceRequest, type WorkspaceServiceOptions, type WorkspaceStore } from './workspace-service.ts';
