// Agent definitions: the kinds of child agent the task tool can start (built-ins, the user's, the workspace's).
export type { AgentDefinition, AgentSource } from '../../shared/agent-definitions/index.ts';
export {
  AGENT_FILE_LIMIT,
  type AgentConfirmations,
  AgentDefinitions,
  type AgentDefinitionsOptions,
  type AgentScan,
  type OverriddenAgent,
  type PendingAgent,
  WORKSPACE_AGENTS_DIR,
} from './agent-definitions.ts';
export { BUILTIN_AGENTS } from './builtin-agents.ts';
export { settingsConfirmations } from './settings-confirmations.ts';
export { parseAgentDefinition, type AgentDefinitionRead } from './agent-definition-file.ts';
export { FrontMatterError, parseFrontMatter, readFrontMatter, type FrontMatter, type FrontMatterValue } from './front-matter.ts';
