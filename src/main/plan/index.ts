// The plan: the short checklist the agent keeps with the todo tool, per branch of a conversation.
export { PlanService, type PlanServiceOptions, type PlanStore } from './plan-service.ts';
export { TODO_OFF, TODO_SPEC, TODO_TOOL, todoToolSource } from './todo-tool-source.ts';
export { describePlan } from './describe-plan.ts';
