import type { Disposable } from '../../shared/disposable.ts';
import type { AppCore } from '../app-core.ts';
import { AmberError } from '../errors.ts';
import { describePlan } from '../plan/index.ts';
import type { CommandTree } from './command-tree.ts';

/** `/plan`: the checklist the agent keeps with the todo tool on this branch. */
export function planCommands(app: AppCore, tree: CommandTree): Disposable {
  return tree.registerAction('plan.show', (_argument, context) => {
    if (!context.sessionId) throw new AmberError('invalid_input', 'Open a conversation first.');
    return describePlan(app.plan.current(context.sessionId).items, app.settings.get('agent.todo'));
  });
}
