import {
  DEFAULT_HOOK_TIMEOUT_MS,
  FAIL_CLOSED_POINTS,
  HOOK_RESULTS,
  type HookFailure,
  type HookPayloads,
  type HookPoint,
  type HookResults,
  MAX_HOOK_MESSAGES,
} from '../../../shared/plugins/index.ts';
import { errorMessage } from '../../errors.ts';
import { ContributionRegistry } from './contribution-registry.ts';

export interface InstalledHook {
  point: HookPoint;
  /** Calls the plugin's hook; resolves with its raw answer (checked here), rejects with what went wrong. */
  invoke(payload: unknown): Promise<unknown>;
  /** Declared `advisory`: where failing closed is the rule (tool_call), this hook fails open instead. */
  advisory?: boolean;
}

/**
 * What a point's hooks made of the payload; `stop` when one of them swallowed the input or blocked the
 * call, with `failed` when the block is a hook that failed where failures fail closed (its reason then
 * says what went wrong, not what the plugin decided).
 */
export interface HookOutcome<P extends HookPoint> {
  payload: HookPayloads[P];
  stop?: { pluginId: string; reason: string; failed?: boolean };
}

export interface RunHookOptions {
  /** Told of each hook that was skipped (threw, timed out, answered in the wrong shape). Must not throw. */
  onError(failure: HookFailure): void;
  /** How long one hook may take; default DEFAULT_HOOK_TIMEOUT_MS of the point. */
  timeoutMs?: number;
}

/**
 * Hooks by plugin and point, in load order (a plugin switched off and on again goes last). `run` calls the
 * hooks of one point one after the other, each seeing the payload as the previous one left it. It never
 * throws: a hook that fails is skipped and reported through `onError`, except at a point that fails closed
 * (FAIL_CLOSED_POINTS: tool_call), where a failing hook not declared advisory stops the chain and blocks
 * the call with the reason.
 */
export class HookRegistry extends ContributionRegistry<InstalledHook> {
  constructor() {
    super('hook');
  }

  /** One hook per point per plugin; the key says whose. */
  static key(pluginId: string, point: HookPoint): string {
    return `${pluginId}:${point}`;
  }

  /** True when some plugin hooks this point (callers skip building a payload otherwise). */
  has(point: HookPoint): boolean {
    return this.entries().some((e) => e.value.point === point);
  }

  async run<P extends HookPoint>(point: P, payload: HookPayloads[P], options: RunHookOptions): Promise<HookOutcome<P>> {
    let current = payload;
    const timeoutMs = options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS[point];
    const closed = FAIL_CLOSED_POINTS.includes(point);
    for (const { pluginId, value } of this.entries().filter((e) => e.value.point === point)) {
      if (closed && !value.advisory) {
        const blocked = await this.#guard(point, pluginId, value, current, timeoutMs);
        if ('stop' in blocked) return { payload: current, stop: blocked.stop };
        if (blocked.result === null) continue;
        const applied = apply(point, current, blocked.result as HookResults[P], pluginId);
        current = applied.payload;
        if (applied.stop) return applied;
        continue;
      }
      const fail = (message: string) => {
        try {
          options.onError({ pluginId, hook: point, message });
        } catch {
          // Reporting must not break the run.
        }
      };
      let raw: unknown;
      try {
        raw = await withTimeout(
          value.invoke(current),
          timeoutMs,
          `The plugin '${pluginId}' did not answer its ${point} hook within ${formatMs(timeoutMs)}, so it was skipped.`,
        );
      } catch (e) {
        fail(
          errorMessage(e).startsWith(`The plugin '${pluginId}'`)
            ? errorMessage(e)
            : `The plugin '${pluginId}' failed in its ${point} hook, so it was skipped: ${errorMessage(e)}`,
        );
        continue;
      }
      if (raw === null || raw === undefined) continue;
      const parsed = HOOK_RESULTS[point].safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        fail(
          `The plugin '${pluginId}' answered its ${point} hook in the wrong shape, so it was skipped: ${issue ? `${issue.path.join('.') || 'result'}: ${issue.message}` : 'unreadable'}.`,
        );
        continue;
      }
      const applied = apply(point, current, parsed.data as HookResults[P], pluginId);
      current = applied.payload;
      if (applied.stop) return applied;
    }
    return { payload: current };
  }

  /** One hook at a point that fails closed: its checked answer (null: no change), or the block its failure is. */
  async #guard(
    point: HookPoint,
    pluginId: string,
    hook: InstalledHook,
    payload: unknown,
    timeoutMs: number,
  ): Promise<{ result: unknown } | { stop: { pluginId: string; reason: string; failed: true } }> {
    const block = (why: string) => ({ stop: { pluginId, reason: `the plugin '${pluginId}' ${why}, so the call was not run.`, failed: true as const } });
    const timedOut = `did not answer its ${point} hook within ${formatMs(timeoutMs)}`;
    let raw: unknown;
    try {
      raw = await withTimeout(hook.invoke(payload), timeoutMs, timedOut);
    } catch (e) {
      const message = errorMessage(e);
      return block(message === timedOut ? timedOut : `failed in its ${point} hook (${message.replace(/\.$/, '')})`);
    }
    if (raw === null || raw === undefined) return { result: null };
    const parsed = HOOK_RESULTS[point].safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return block(`answered its ${point} hook in the wrong shape (${issue ? `${issue.path.join('.') || 'result'}: ${issue.message}` : 'unreadable'})`);
    }
    return { result: parsed.data };
  }
}

/** How one hook's answer changes the payload the next hook sees. */
function apply<P extends HookPoint>(point: P, payload: HookPayloads[P], result: HookResults[P], pluginId: string): HookOutcome<P> {
  const out = (p: HookPayloads[HookPoint], stop?: HookOutcome<P>['stop']): HookOutcome<P> => ({ payload: p as HookPayloads[P], ...(stop ? { stop } : {}) });
  switch (point) {
    case 'input': {
      const p = payload as HookPayloads['input'];
      const r = result as HookResults['input'];
      if (r.swallow) return out(p, { pluginId, reason: r.reason ?? `The plugin '${pluginId}' handled this message, so it was not sent to the model.` });
      return out(r.text !== undefined ? { ...p, text: r.text } : p);
    }
    case 'before_agent_start': {
      const p = payload as HookPayloads['before_agent_start'];
      const r = result as HookResults['before_agent_start'];
      const systemPrompt = r.systemPrompt ? [p.systemPrompt, r.systemPrompt].filter((s) => s !== '').join('\n\n') : p.systemPrompt;
      return out({ ...p, systemPrompt, messages: [...p.messages, ...(r.messages ?? [])].slice(0, MAX_HOOK_MESSAGES) });
    }
    case 'context': {
      const p = payload as HookPayloads['context'];
      const r = result as HookResults['context'];
      return out(r.messages ? { ...p, messages: r.messages as HookPayloads['context']['messages'] } : p);
    }
    case 'tool_call': {
      const p = payload as HookPayloads['tool_call'];
      const r = result as HookResults['tool_call'];
      if (r.block) return out(p, { pluginId, reason: r.reason ?? `The plugin '${pluginId}' blocked this call.` });
      return out(r.args ? { ...p, args: r.args } : p);
    }
    case 'tool_result': {
      const p = payload as HookPayloads['tool_result'];
      const r = result as HookResults['tool_result'];
      return out(r.result ? { ...p, result: r.result } : p);
    }
    default:
      return out(payload);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toLocaleString('en')} s` : `${ms} ms`;
}
