export { confine, isInside, type ConfinedPath } from './path-confinement.ts';
export {
  PolicyService,
  toolPaths,
  type Approver,
  type GateDecision,
  type Grant,
  type PolicyDecision,
  type PolicyServiceOptions,
  type SettingsStore,
  type ToolGate,
  type ToolRequest,
} from './policy-service.ts';
export { commandPrefix, loadShellParser, shellClassify, type ShellClassifyOptions, type ShellVerdict } from './shell-classify.ts';
export { isShellTool, ShellPolicy, type ShellDecision, type ShellJudgement, type ShellPolicyOptions } from './shell-policy.ts';
