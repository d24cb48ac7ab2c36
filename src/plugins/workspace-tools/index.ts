import { bashTool, createBashTool, shellFor, tailOutput } from './bash-tool.ts';
import { editTool } from './edit-tool.ts';
import { findTool } from './find-tool.ts';
import { grepTool } from './grep-tool.ts';
import { lsTool } from './ls-tool.ts';
import { readTool } from './read-tool.ts';
import { writeTool } from './write-tool.ts';

export { WORKSPACE_TOOLS } from './workspace-tools.ts';

export { bashTool, createBashTool, editTool, findTool, grepTool, lsTool, readTool, shellFor, tailOutput, writeTool };
export { clipLine, truncateOutput } from './truncate-output.ts';
export { deniedFolderOf } from './denied-folder.ts';
export { probeSandbox, sandboxLaunch, type SandboxLabel, type SandboxProbe, type SandboxProbeOptions } from './sandbox/index.ts';
export { confinePath, isInsideFolder, resolveWorkspaceRoot, type ConfinedPath } from './workspace-path.ts';
export { resolveWorkspaceTarget, type WorkspaceTarget } from './workspace-target.ts';
export { defineWorkspaceTool, textOutput, ToolFailure, type WorkspaceTool, type WorkspaceToolContext } from './workspace-tool.ts';
export { looksBinary, SKIPPED_DIRS, walkFiles } from './walk-files.ts';
export { default } from './workspace-tools-plugin.ts';
