export { ApprovalBroker, type ApprovalChange } from './approval-broker.ts';
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
