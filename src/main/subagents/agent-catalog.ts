/** What the task tool needs of an agent definition (the agent-definitions feature's AgentDefinition fits it). */
export interface SubagentKind {
  name: string;
  description: string;
  /** The tools it may use; absent: every tool the parent may use (but the task tool). */
  tools?: readonly string[] | undefined;
  model?: { provider: string; id: string } | undefined;
  maxIterations?: number | undefined;
  /** False: only read-only tools run, whatever the conversation's mode. */
  mayWrite: boolean;
  /** Added to the child's system prompt. */
  prompt: string;
}

/** Where the kinds come from: the agent definitions (`workspaceRoot` adds the workspace's confirmed ones). */
export interface AgentCatalog {
  list(workspaceRoot?: string): Promise<readonly SubagentKind[]>;
  get(name: string, workspaceRoot?: string): Promise<SubagentKind | undefined>;
}

/** The agent a task names none of. */
export const DEFAULT_AGENT = 'general';

const GENERAL: SubagentKind = {
  name: DEFAULT_AGENT,
  description: 'A general-purpose agent for a self-contained task: it may use every tool the conversation may use.',
  mayWrite: true,
  prompt:
    'You are working on one self-contained task handed to you by another agent. Do the task completely with the tools you have, then reply with what you did and what you found, naming the files you read or changed. Your reply is all the other agent will see.',
};

/** A catalog of the general agent alone: used where no agent definitions are wired in. */
export const generalOnly: AgentCatalog = {
  list: async () => [GENERAL],
  get: async (name) => (name === DEFAULT_AGENT ? GENERAL : undefined),
};
