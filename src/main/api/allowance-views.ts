import type { AllowanceView } from '../../shared/api/index.ts';
import type { AllowanceRegistry } from '../plugins/index.ts';

const MONEY_UNITS = new Set(['usd', 'eur', 'gbp', 'cny', 'jpy', '$', '€', '£', 'money', 'dollars', 'credits']);

/** The plugins' allowances as the window draws them. */
export function allowanceViews(
  allowances: Pick<AllowanceRegistry, 'list'>,
  accountName: (id: string) => string | undefined = () => undefined,
): AllowanceView[] {
  // An allowance that limits nothing is not listed: a bar at 0% of nothing would claim a limit.
  return allowances
    .list()
    .filter((a) => !a.inactive)
    .map((a) => {
      const unit = a.unit.toLowerCase();
      const account = a.scope === '*' ? undefined : accountName(a.scope);
      return {
        id: a.id,
        pluginId: a.pluginId,
        spent: a.spent,
        limit: a.limit,
        unit: a.unit,
        measure: MONEY_UNITS.has(unit) ? ('money' as const) : unit === 'tokens' || unit === 'token' ? ('tokens' as const) : ('other' as const),
        scope: a.scope,
        ...(account !== undefined ? { account } : {}),
        period: a.period ?? null,
        resetsAt: a.resetsAt ?? null,
      };
    });
}
