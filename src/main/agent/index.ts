export { AgentService, type AgentServiceOptions, type RunResult, type StartedRun, type StartOptions } from './agent-service.ts';
export type { ModelRef, PromptContent, ProviderResolver, ResolvedProvider } from './agent-loop.ts';
export { DEFAULT_COMPACTION, type CompactionOutcome, type CompactionSettings } from './compactor.ts';
export type { PromptBlock, PromptBlockContext } from './prompt-assembly.ts';
export { DEFAULT_RECOVERY_LIMITS, type RecoveryLimits } from './recovery-monitor.ts';
export { callSignature, type ToolExecution, type ToolSource } from './tool-dispatcher.ts';
export { estimateContextTokens } from './context-tokens.ts';
