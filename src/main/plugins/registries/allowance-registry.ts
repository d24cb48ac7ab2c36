import type { AllowancePeriod, AllowanceRequest, AllowanceVerdict } from '../../../shared/plugins/index.ts';
import { errorMessage } from '../../errors.ts';
import { ContributionRegistry } from './contribution-registry.ts';

export interface InstalledAllowance {
  id: string;
  scope: string;
  limit: number;
  unit: string;
  spent: number;
  period?: AllowancePeriod;
  /** Epoch ms of the next reset. */
  resetsAt?: number;
  /** It limits nothing right now: left out of the allowances panel. */
  inactive?: boolean;
  check(request: AllowanceRequest): Promise<AllowanceVerdict>;
}

export interface ListedAllowance extends Omit<InstalledAllowance, 'check'> {
  pluginId: string;
}

export interface AllowanceDecision {
  allowed: boolean;
  /** Sentences from allowances that let the call through but are close to their limit (e.g. at 80%). */
  warnings?: string[];
  /** The allowance that refused, and its sentence for the user. */
  allowanceId?: string;
  reason?: string;
}

/** Spending limits checked before each provider call. A check that fails to answer refuses the call. */
export class AllowanceRegistry extends ContributionRegistry<InstalledAllowance> {
  constructor() {
    super('allowance');
  }

  list(): ListedAllowance[] {
    return this.entries().map(({ pluginId, value: { check: _check, ...rest } }) => ({ ...rest, pluginId }));
  }

  /** Asks every allowance whose scope is the provider or '*'; the first refusal (in id order) wins. */
  async check(request: AllowanceRequest): Promise<AllowanceDecision> {
    const relevant = this.entries()
      .filter((e) => e.value.scope === '*' || e.value.scope === request.providerId)
      .sort((a, b) => a.key.localeCompare(b.key));
    const verdicts = await Promise.all(
      relevant.map((e) =>
        e.value.check(request).then(
          (v) => v,
          (err: unknown): AllowanceVerdict => ({ allowed: false, reason: `The allowance '${e.key}' could not be checked: ${errorMessage(err)}` }),
        ),
      ),
    );
    for (const [i, v] of verdicts.entries()) {
      const e = relevant[i]!;
      const seen = {
        ...(v.spent !== undefined ? { spent: v.spent } : {}),
        ...(v.limit !== undefined ? { limit: v.limit } : {}),
        ...(v.resetsAt !== undefined ? { resetsAt: v.resetsAt } : {}),
      };
      const { inactive: wasInactive, ...rest } = e.value;
      // One that refuses a call limits something, whatever it says: it is shown.
      const inactive = v.inactive === true && v.allowed;
      // Only news is told: a check before every model call that reports the same figures changes nothing.
      const news = Object.entries(seen).some(([k, value]) => rest[k as keyof typeof seen] !== value);
      if ((news || inactive !== (wasInactive === true)) && this.get(e.key) === e) {
        this.replace(e.pluginId, e.key, { ...rest, ...seen, ...(inactive ? { inactive } : {}) });
      }
      if (!v.allowed) return { allowed: false, allowanceId: e.key, reason: v.reason ?? `The allowance '${e.key}' is used up.` };
    }
    const warnings = verdicts.flatMap((v) => (v.allowed && v.reason ? [v.reason] : []));
    return warnings.length ? { allowed: true, warnings } : { allowed: true };
  }
}
