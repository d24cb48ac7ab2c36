import type { PluginCommandResult } from '../../../shared/plugins/index.ts';
import { errorMessage } from '../../errors.ts';
import { ContributionRegistry } from './contribution-registry.ts';

export interface InstalledCommand {
  path: string[];
  help: string;
  man?: string;
  run(args: string[]): Promise<PluginCommandResult>;
}

export interface ListedCommand extends Omit<InstalledCommand, 'run'> {
  pluginId: string;
}

/** Commands keyed by their path joined with spaces ('usage today'). `run` never throws. */
export class CommandRegistry extends ContributionRegistry<InstalledCommand> {
  constructor() {
    super('command');
  }

  list(): ListedCommand[] {
    return this.entries()
      .map(({ pluginId, value: { run: _run, ...rest } }) => ({ ...rest, pluginId }))
      .sort((a, b) => a.path.join(' ').localeCompare(b.path.join(' ')));
  }

  async run(path: string[], args: string[] = []): Promise<PluginCommandResult> {
    const held = this.get(path.join(' '));
    if (!held) return { output: `There is no command '${path.join(' ')}'.`, isError: true };
    try {
      return await held.value.run(args);
    } catch (e) {
      return { output: errorMessage(e), isError: true };
    }
  }
}
