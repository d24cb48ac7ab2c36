import type { MethodArgs, MethodResult, PluginMethodTable } from '../../../shared/plugins/index.ts';
import { AmberError, errorMessage } from '../../errors.ts';
import { ContributionRegistry } from './contribution-registry.ts';

export interface InstalledMethod {
  /** Calls the plugin's method with arguments main already checked; resolves with its raw answer. */
  call(args: unknown): Promise<unknown>;
}

/**
 * The methods plugins declared for main to call, keyed by plugin and name: a plugin can only ever answer
 * for its own methods. `call` checks both ways against the table the caller names (PluginMethodTable):
 * arguments before they leave, the answer when it comes back.
 */
export class MethodRegistry extends ContributionRegistry<InstalledMethod> {
  constructor() {
    super('method');
  }

  static key(pluginId: string, name: string): string {
    return `${pluginId}:${name}`;
  }

  has(pluginId: string, name: string): boolean {
    return this.get(MethodRegistry.key(pluginId, name)) !== undefined;
  }

  /**
   * Throws `unavailable` when the plugin declares no such method now (it is off, or not running), `invalid_input`
   * for arguments the table refuses, and `unavailable` with the plugin's sentence when the method failed or
   * answered in a shape the table refuses.
   */
  async call<T extends PluginMethodTable, M extends keyof T & string>(
    pluginId: string,
    table: T,
    name: M,
    args: MethodArgs<T, M>,
  ): Promise<MethodResult<T, M>> {
    const held = this.get(MethodRegistry.key(pluginId, name));
    if (!held) throw new AmberError('unavailable', `The plugin '${pluginId}' is not running, or offers no '${name}'; switch it on in Settings → Plugins.`);
    const spec = table[name]!;
    const checked = spec.args.safeParse(args);
    if (!checked.success) throw new AmberError('invalid_input', `The arguments for '${name}' are not valid: ${checked.error.issues[0]?.message ?? 'invalid'}.`);
    let raw: unknown;
    try {
      raw = await held.value.call(checked.data);
    } catch (e) {
      throw new AmberError('unavailable', errorMessage(e), { cause: e });
    }
    const answer = spec.result.safeParse(raw);
    if (!answer.success)
      throw new AmberError(
        'unavailable',
        `The plugin '${pluginId}' answered '${name}' in a shape Amber cannot read (${answer.error.issues[0]?.message ?? 'invalid'}).`,
      );
    return answer.data as MethodResult<T, M>;
  }
}
