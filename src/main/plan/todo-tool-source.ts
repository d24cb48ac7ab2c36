import { z } from 'zod';
import { doneCount, PLAN_ITEM_MAX_CHARS, PLAN_MAX_ITEMS, PlanItems, PlanItemStatus } from '../../shared/plan/index.ts';
import type { ToolSpec } from '../../shared/tools/index.ts';
import type { ToolSource } from '../agent/index.ts';
import type { PlanService } from './plan-service.ts';

export const TODO_TOOL = 'todo';

/** The sentence the model reads when the tool is off; it names both ways to switch it on. */
export const TODO_OFF =
  'The todo tool is off, so no plan was kept. The user can switch it on in Settings or by typing /set agent.todo on; until then, carry on without it.';

export const TODO_SPEC: ToolSpec = {
  name: TODO_TOOL,
  description: [
    'Keep a short checklist of the steps of the current task; the user sees it above the message box, updated live.',
    'Send the whole list each time: it replaces the previous one. Each item has a short text and a status:',
    `pending, in_progress (at most one at a time) or done. At most ${PLAN_MAX_ITEMS} items.`,
    'Use it for tasks of three or more steps: write the plan first, then mark each step as you start and finish it.',
  ].join(' '),
  parameters: {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        maxItems: PLAN_MAX_ITEMS,
        items: {
          type: 'object',
          properties: {
            text: { type: 'string', minLength: 1, maxLength: PLAN_ITEM_MAX_CHARS },
            status: { type: 'string', enum: PlanItemStatus.options },
          },
          required: ['text', 'status'],
          additionalProperties: false,
        },
      },
    },
    required: ['items'],
    additionalProperties: false,
  },
  // It changes nothing but the conversation's own plan: it runs in every policy mode without asking.
  readOnly: true,
};

const TodoArgs = z.object({ items: PlanItems });

/**
 * The `todo` tool: the model writes its whole checklist each call and the conversation's branch keeps it (see
 * PlanService). Off until the user switches it on (`enabled`); a call while off is declined with a sentence
 * saying how to switch it on.
 */
export function todoToolSource(options: { plan: PlanService; enabled: () => boolean }): ToolSource {
  return {
    list: () => [TODO_SPEC],
    async execute(name, args, execution) {
      if (name !== TODO_TOOL) throw new Error(`There is no tool named ${name}.`);
      if (!options.enabled()) throw new Error(TODO_OFF);
      const parsed = TodoArgs.safeParse(args);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new Error(`The plan was not kept: ${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}. Send the whole list again.`);
      }
      const { items } = options.plan.write(execution.sessionId, parsed.data.items);
      const current = items.find((i) => i.status === 'in_progress');
      const text =
        items.length === 0
          ? 'The plan is cleared.'
          : `Plan kept: ${doneCount(items)} of ${items.length} done.${current ? ` In progress: ${current.text}` : ''}`;
      return { content: [{ type: 'text', text }], isError: false };
    },
  };
}
