/**
 * The query keys of every piece of server state the renderer caches. One table, so the API events that
 * invalidate or replace an entry (bind-api-events.ts) and the hooks that read it name the same thing.
 */
export const serverKeys = {
  status: (sessionId: string | null) => ['status', sessionId] as const,
  statusAll: ['status'] as const,
  sessions: (query: string) => ['sessions', query] as const,
  sessionsAll: ['sessions'] as const,
  siblings: (sessionId: string, entryIds: readonly string[]) => ['siblings', sessionId, entryIds] as const,
  siblingsOf: (sessionId: string) => ['siblings', sessionId] as const,
  panels: ['panels'] as const,
  wallets: ['wallets'] as const,
  allowances: ['allowances'] as const,
  plugins: ['plugins'] as const,
  commands: ['commands'] as const,
  models: (sessionId: string) => ['models', sessionId] as const,
  modelsAll: ['models'] as const,
  /** Every account's models with no conversation (`models.list`): under the models' key, so what reads them again reads it too. */
  modelList: ['models', { byAccount: true }] as const,
  thinking: (sessionId: string) => ['thinking', sessionId] as const,
  tree: (sessionId: string) => ['tree', sessionId] as const,
  policy: (sessionId: string | null) => ['policy', sessionId] as const,
  policyAll: ['policy'] as const,
  /** Under the policy's key: policy.changed for the conversation, or for all (null), reads it again. */
  sandbox: (sessionId: string | null) => ['policy', sessionId, 'sandbox'] as const,
  mcp: ['mcp'] as const,
  mcpTrust: ['mcpTrust'] as const,
  /** One server's stored settings, for its Edit form: read each time the form opens. */
  mcpServer: (name: string) => ['mcpServer', name] as const,
  pluginConfig: (pluginId: string) => ['pluginConfig', pluginId] as const,
  instructions: (sessionId: string | null) => ['instructions', sessionId] as const,
  /** The conversations whose tool call waits for a workspace folder. */
  workspacePending: ['workspacePending'] as const,
  folderCompletions: (input: string) => ['folderCompletions', input] as const,
  /** The folders chosen last, which the workspace picker offers. */
  recentFolders: ['recentFolders'] as const,
  lastPrompt: (sessionId: string) => ['lastPrompt', sessionId] as const,
  /** What the model sees now on the conversation's branch (the Context tab of View prompt). */
  contextView: (sessionId: string) => ['contextView', sessionId] as const,
  /** The evals `amber eval` ran, and one page of one of them. */
  evals: ['evals'] as const,
  /** The scheduled tasks with their last runs (Settings → Scheduled tasks), replaced by schedule.changed. */
  schedule: ['schedule'] as const,
  evalDetail: (evalId: string, page: number) => ['evals', evalId, page] as const,
  presets: ['presets'] as const,
  /** The projects (the sidebar's groups, Settings → Projects), replaced by projects.changed. */
  projects: ['projects'] as const,
  /** The saved provider connections Settings lists. */
  providerConnections: ['providerConnections'] as const,
  /** The tool calls waiting for the user's answer (the approval dialog and the tool cards' own buttons). */
  approvals: ['approvals'] as const,
  /** The forms plugins ask the user to fill (an MCP server's elicitation): on a tool card or in their dialog. */
  elicitations: ['elicitations'] as const,
  /** Under the commands' key: commands.changed has the completions read again too. */
  completions: (input: string) => ['commands', 'complete', input] as const,
};
