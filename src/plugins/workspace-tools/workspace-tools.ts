import { bashTool } from './bash-tool.ts';
import { editTool } from './edit-tool.ts';
import { findTool } from './find-tool.ts';
import { grepTool } from './grep-tool.ts';
import { lsTool } from './ls-tool.ts';
import { readTool } from './read-tool.ts';
import type { WorkspaceTool } from './workspace-tool.ts';
import { writeTool } from './write-tool.ts';

/** Every workspace tool, read-only ones first. */
export const WORKSPACE_TOOLS: readonly WorkspaceTool[] = [readTool, lsTool, findTool, grepTool, writeTool, editTool, bashTool];
