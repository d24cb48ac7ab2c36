import { platform, release } from 'node:os';
import { INSTRUCTIONS_LIMIT } from '../../shared/settings/index.ts';
import type { ToolSpec } from '../../shared/tools/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { readProjectContext } from './project-context.ts';
import { buildSystemPrompt } from './system-prompt.ts';

export interface SystemPromptBuilderOptions {
  /** Where the user's instructions are kept. */
  settings: SettingsService;
  /** The conversation's workspace folder, or null. */
  workspaceOf(sessionId: string): string | null;
  /** The project a workspace folder belongs to (its name and instructions), or null. Default: none. */
  projectInstructions?: (workspace: string | null) => { name: string; instructions: string } | null;
  clock?: () => number;
  env?: Record<string, string | undefined>;
  /** Where files that could not be read into the prompt are reported. */
  log?: (message: string) => void;
  /** The skills a run with these tools may load in a workspace (null: none), listed one line each. Default: none. */
  skills?: (workspace: string | null, tools: readonly ToolSpec[]) => Promise<readonly { name: string; description: string }[]>;
}

export { INSTRUCTIONS_LIMIT };

/** Builds each run's system message (see buildSystemPrompt) and keeps the user's own instructions. */
export class SystemPromptBuilder {
  readonly #options: SystemPromptBuilderOptions;

  constructor(options: SystemPromptBuilderOptions) {
    this.#options = options;
  }

  instructions(sessionId: string | null): { global: string; conversation: string } {
    const settings = this.#options.settings;
    return { global: settings.get('agent.instructions'), conversation: sessionId ? settings.get('agent.instructions.conversation', sessionId) : '' };
  }

  /** Instructions for every conversation (`sessionId` null) or for one; empty text clears them. */
  setInstructions(sessionId: string | null, text: string): void {
    const clean = text.trim().slice(0, INSTRUCTIONS_LIMIT);
    const value = clean === '' ? null : clean;
    if (sessionId) this.#options.settings.set('agent.instructions.conversation', sessionId, value);
    else this.#options.settings.set('agent.instructions', value);
  }

  /**
   * Never throws for a file it cannot read: that file is left out and logged. The project's files are read
   * off main's thread, within PROJECT_CONTEXT_TIMEOUT_MS.
   */
  async build(sessionId: string, tools: readonly ToolSpec[]): Promise<string> {
    const workspace = this.#options.workspaceOf(sessionId);
    const context = workspace ? await readProjectContext(workspace) : { files: [], gitRoot: null, skipped: [] };
    for (const why of context.skipped) this.#options.log?.(`A project instruction file was left out of the prompt: ${why}`);
    const env = this.#options.env ?? process.env;
    const now = new Date((this.#options.clock ?? Date.now)());
    const skills = this.#options.skills ? await this.#options.skills(workspace, tools).catch(() => []) : [];
    return buildSystemPrompt({
      tools,
      environment: {
        os: `${osName(platform())} ${release()}`,
        shell: env.SHELL ?? env.ComSpec ?? 'unknown',
        date: `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`,
        workspace,
        gitRoot: context.gitRoot,
      },
      projectFiles: context.files,
      instructions: this.instructions(sessionId),
      ...projectPart(this.#options.projectInstructions?.(workspace) ?? null),
      ...(skills.length > 0 ? { skills } : {}),
    });
  }
}

function projectPart(project: { name: string; instructions: string } | null): { project?: { name: string; instructions: string } } {
  return project && project.instructions.trim() !== '' ? { project } : {};
}

function osName(p: NodeJS.Platform): string {
  return p === 'darwin' ? 'macOS' : p === 'win32' ? 'Windows' : p === 'linux' ? 'Linux' : p;
}
