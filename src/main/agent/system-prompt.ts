import type { ToolSpec } from '../../shared/tools/index.ts';
import type { ProjectFile } from './project-context.ts';

/** The agent's standing instructions: who it is and how it works, before anything about this run. */
export const BASE_PROMPT = `You are Amber, an agent that helps the user with their work from a desktop chat window. You can read and change files in the conversation's workspace folder and use the tools listed below.

How to work:
- Use the tools to find out instead of guessing: look at a folder before you describe it, and read a file before you edit it.
- Make the smallest change that does what was asked, and say what you changed.
- Stay inside the workspace folder. A tool call may need the user's approval; if one is denied, do not try to get around the refusal — say what you wanted to do and why.
- When you are not sure what the user wants, ask one short question.
- Keep answers short: this is a chat window. Use Markdown for code and lists.`;

export interface EnvironmentFacts {
  os: string;
  shell: string;
  /** The date the run started, as the user's calendar shows it (YYYY-MM-DD). */
  date: string;
  /** The conversation's workspace folder, or null when it has none yet. */
  workspace: string | null;
  /** The git root the workspace is in, if any. */
  gitRoot: string | null;
}

export interface SystemPromptParts {
  tools: readonly ToolSpec[];
  environment: EnvironmentFacts;
  /** AGENTS.md / CLAUDE.md files, outermost first (the nearest one last, so it has the last word). */
  projectFiles: readonly ProjectFile[];
  /** The user's own instructions: for every conversation, then for this one. */
  instructions: { global: string; conversation: string };
  /** The instructions of the project the workspace belongs to: after the project's files, before the user's own. */
  project?: { name: string; instructions: string };
  /** The skills the skill tool can load, one line each; none leaves the prompt as it was. */
  skills?: readonly { name: string; description: string }[];
}

/**
 * The system message of a run, built in one place: the base prompt, the tools actually offered, the
 * environment, the project's context files and the user's own instructions. The plugins' head blocks are
 * added after it by the prompt assembly.
 */
export function buildSystemPrompt(parts: SystemPromptParts): string {
  const sections = [BASE_PROMPT, toolsSection(parts.tools), environmentSection(parts.environment)];
  for (const file of parts.projectFiles) {
    const note = file.truncated ? `\n[${file.name} was cut at ${file.limitBytes} bytes; read the file for the rest.]` : '';
    sections.push(`# Project instructions from ${file.path}\n\n${file.text.trim()}${note}`);
  }
  if (parts.project && parts.project.instructions.trim() !== '')
    sections.push(`# Instructions of the project "${parts.project.name}"\n\n${parts.project.instructions.trim()}`);
  if (parts.instructions.global.trim() !== '') sections.push(`# The user's instructions\n\n${parts.instructions.global.trim()}`);
  if (parts.instructions.conversation.trim() !== '')
    sections.push(`# The user's instructions for this conversation\n\n${parts.instructions.conversation.trim()}`);
  if (parts.skills && parts.skills.length > 0) sections.push(skillsSection(parts.skills));
  return sections.join('\n\n');
}

function toolsSection(tools: readonly ToolSpec[]): string {
  if (tools.length === 0) return '# Tools\n\nNo tools are available in this conversation: answer from what you know and what the user tells you.';
  const lines = tools.map((t) => `- ${t.name}${t.readOnly ? ' (read-only)' : ''}: ${oneLine(t.description)}`);
  return `# Tools\n\n${lines.join('\n')}`;
}

function skillsSection(skills: readonly { name: string; description: string }[]): string {
  const lines = skills.map((s) => `- ${s.name}: ${s.description.replace(/\s+/g, ' ').trim()}`);
  return `# Skills\n\nLoad a skill with the skill tool when the task matches its description; its instructions come back as the result.\n\n${lines.join('\n')}`;
}

function environmentSection(env: EnvironmentFacts): string {
  const lines = [`- Operating system: ${env.os}`, `- Shell: ${env.shell}`, `- Today's date: ${env.date}`];
  if (env.workspace) {
    lines.push(`- Workspace folder: ${env.workspace} (tool paths are relative to it)`);
    lines.push(env.gitRoot ? `- The workspace is in a git repository (root: ${env.gitRoot}).` : '- The workspace is not in a git repository.');
  } else {
    lines.push('- This conversation has no workspace folder yet; the user is asked for one when a tool needs it.');
  }
  return `# Environment\n\n${lines.join('\n')}`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const cut = flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
  return cut;
}
