// Sub-agents: the task tool, the child agents it runs, their limits, Stop, and their rows in the window.
export { type AgentCatalog, DEFAULT_AGENT, generalOnly, type SubagentKind } from './agent-catalog.ts';
export { CHILD_PREAMBLE } from './child-run.ts';
export { STOP_GRACE_MS, SUBAGENTS_OFF, SubagentService, type SubagentServiceOptions } from './subagent-service.ts';
