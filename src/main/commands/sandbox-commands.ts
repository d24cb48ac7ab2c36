import { type Disposable, DisposableStore } from '../../shared/disposable.ts';
import type { AppCore } from '../app-core.ts';
import { AmberError } from '../errors.ts';
import type { CommandContext, CommandTree } from './command-tree.ts';

/**
 * `/sandbox`: what the shell sandbox allows in this conversation; `/sandbox network on|off|default`: whether
 * its commands in write mode may use the network — its own choice, which wins over the Settings switch, or
 * back to following that switch. The sandbox's owner announces the change.
 */
export function sandboxCommands(app: AppCore, tree: CommandTree): Disposable {
  const store = new DisposableStore();
  const { sandbox, policy } = app;

  const describe = async (sessionId: string): Promise<string> => {
    const status = await sandbox.status();
    if (!status.available) return `Commands run without a sandbox here: ${status.reason} Every command that is not read-only asks first. ${status.fix}`;
    const mode = policy.mode(sessionId);
    if (mode === 'read') return 'Read mode: commands run in the sandbox reading files only, with secrets hidden and no network.';
    if (mode === 'yolo') return 'Yolo mode: commands run in the sandbox, writing inside the workspace except its protected paths, with network.';
    return `Write mode: commands run in the sandbox, writing inside the workspace except its protected paths, ${networkText(sessionId)}`;
  };
  const networkText = (sessionId: string): string => {
    const own = sandbox.sessionNetwork(sessionId);
    const on = own ?? sandbox.network();
    return `${on ? 'with' : 'without'} network (${own === null ? 'the Settings switch' : 'this conversation’s choice'}; /sandbox network on|off|default changes it).`;
  };

  store.add(tree.registerAction('sandbox.show', async (_argument, context) => describe(session(context))));
  store.add(tree.registerAction('sandbox.network', (_argument, context) => `In write mode, commands run ${networkText(session(context))}`));
  for (const [id, on] of [
    ['on', true],
    ['off', false],
    ['default', null],
  ] as const) {
    store.add(
      tree.registerAction(`sandbox.network.${id}`, (_argument, context) => {
        const sessionId = session(context);
        sandbox.setSessionNetwork(sessionId, on);
        if (on === null)
          return `This conversation follows the Settings switch again: commands in write mode run ${sandbox.network() ? 'with' : 'without'} network.`;
        return `Commands in write mode in this conversation now run ${on ? 'with' : 'without'} network, whatever the Settings switch says. Read mode never has network; yolo mode always has.`;
      }),
    );
  }
  return store;
}

function session(context: CommandContext): string {
  if (!context.sessionId) throw new AmberError('invalid_input', 'Open a conversation first.');
  return context.sessionId;
}
