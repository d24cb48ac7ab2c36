import { platform, release } from 'node:os';
import type { ToolSpec } from '../../shared/tools/index.ts';
import { readProjectContext } from './project-context.ts';
import { buildSystemPrompt } from './system-prompt.ts';

/** The settings the builder keeps the user's instructions in (SessionStore has them). */
export interface InstructionsStore {
  getSetting(key: string): string | null;
  setSetting(key: string, value: string | null): void;
}

export interface SystemPromptBuilderOptions {
  store: InstructionsStore;
  /** The conversation's workspace folder, or null. */
  workspaceOf(sessionId: string): string | null;
  clock?: () => number;
  env?: Record<string, string | undefined>;
  /** Where files that could not be read into the prompt are reported. */
  log?: (message: string) => void;
}

const GLOBAL_KEY = 'agent.instructions';
const conversationKey = (sessionId: string) => `agent.instructions.${sessionId}`;
/** The most instructions text kept per scope. */
export const INSTRUCTIONS_LIMIT = 20_000;

/** Builds each run's system message (see buildSystemPrompt) and keeps the user's own instructions. */
export class SystemPromptBuilder {
  readonly #options: SystemPromptBuilderOptions;

  constructor(options: SystemPromptBuilderOptions) {
    this.#options = options;
  }

  instructions(sessionId: string | null): { global: string; conversation: string } {
    const store = this.#options.store;
    return { global: store.getSetting(GLOBAL_KEY) ?? '', conversation: sessionId ? (store.getSetting(conversationKey(sessionId)) ?? '') : '' };
  }

  /** Instructions for every conversation (`sessionId` null) or for one; empty text clears them. */
  setInstructions(sessionId: string | null, text: string): void {
    const clean = text.trim().slice(0, INSTRUCTIONS_LIMIT);
    this.#options.store.setSetting(sessionId ? conversationKey(sessionId) : GLOBAL_KEY, clean === '' ? null : clean);
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
    });
  }
}

function osName(p: NodeJS.Platform): string {
  return p === 'darwin' ? 'macOS' : p === 'win32' ? 'Windows' : p === 'linux' ? 'Linux' : p;
}
