export { ApprovalBroker, type ApprovalChange } from './approval-broker.ts';
export { PolicyRuleBook, ruleHoldsIn, shellGrants } from './policy-rule-book.ts';
export { realPath } from './real-path.ts';
export { probeSandbox, sandboxFix, type SandboxProbeOptions, type SandboxStatus, type SpawnProgram } from './sandbox-probe.ts';
export { sandboxProfile, type SandboxProfileInput } from './sandbox-profile.ts';
export { SandboxService, type SandboxChange, type SandboxServiceOptions } from './sandbox-service.ts';
export {
  PolicyService,
  QuestionWithdrawn,
  toolPaths,
  type Approver,
  type GateDecision,
  type PolicyDecision,
  type PolicyServiceOptions,
  type ToolGate,
  type ToolOrigin,
  type ToolRequest,
} from './policy-service.ts';
export { commandPrefix, loadShellParser, shellClassify, type ShellClassifyOptions, type ShellVerdict } from './shell-classify.ts';
export { isShellTool, ShellPolicy, type ShellDecision, type ShellJudgement, type ShellPolicyOptions } from './shell-policy.ts';
export { UnattendedApprovals, type AllowEntry, type UnattendedCall, type UnattendedDecision } from './unattended-approvals.ts';
