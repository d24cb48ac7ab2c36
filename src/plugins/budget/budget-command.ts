import { BudgetPeriod } from './budget-period.ts';
import type { BudgetUnit } from './budget-status.ts';

export const BUDGET_HELP = 'Show or change spending budgets: /budget, /budget set day 10, /budget reset day';

export const BUDGET_MAN = [
  'budget — spending budgets, checked before every model call',
  '',
  '  /budget                              show each budget, what it has spent and when it resets',
  '  /budget set <period> <limit> [unit]  set a limit; period is session, day or month;',
  '                                       unit is usd (default, "$10" works too) or tokens ("200k tokens")',
  '  /budget reset <period> [unit]        count this period from zero again',
  '  /budget clear <period> [unit]        remove the budget',
  '',
  'At 80% of a limit each call warns; at 100% calls are blocked until the limit is raised or the period ends.',
].join('\n');

export type BudgetCommand =
  | { action: 'show' }
  | { action: 'help' }
  | { action: 'set'; period: BudgetPeriod; unit: BudgetUnit; limit: number }
  | { action: 'reset' | 'clear'; period: BudgetPeriod; unit: BudgetUnit | null };

/** Parses the words after `/budget`. An error is a sentence saying what to type instead. */
export function parseBudgetCommand(args: readonly string[]): BudgetCommand | { error: string } {
  const [verb, ...rest] = args.map((a) => a.trim()).filter((a) => a.length > 0);
  if (verb === undefined || verb === 'show' || verb === 'list') return { action: 'show' };
  if (verb === 'help') return { action: 'help' };
  if (verb !== 'set' && verb !== 'reset' && verb !== 'clear')
    return { error: `Unknown /budget action '${verb}'. Try /budget set day 10, /budget reset day or /budget clear day.` };
  const period = BudgetPeriod.safeParse(normalisePeriod(rest[0]));
  if (!period.success) return { error: `Say which budget: session, day or month (for example /budget ${verb} day${verb === 'set' ? ' 10' : ''}).` };
  if (verb === 'set') {
    const amount = rest[1];
    const parsed = amount === undefined ? null : parseLimit(amount);
    if (!parsed) return { error: `Give a positive limit, for example /budget set ${period.data} 10 or /budget set ${period.data} 200k tokens.` };
    const unitWord = rest[2];
    const unit = unitWord === undefined ? (parsed.unit ?? 'usd') : parseUnit(unitWord);
    if (unit === null) return { error: `The unit is usd or tokens, not '${unitWord}'.` };
    if (parsed.unit && parsed.unit !== unit) return { error: `A limit written with '$' is in dollars, not ${unit}.` };
    return { action: 'set', period: period.data, unit, limit: parsed.limit };
  }
  const unit = rest[1] === undefined ? null : parseUnit(rest[1]);
  if (rest[1] !== undefined && unit === null) return { error: `The unit is usd or tokens, not '${rest[1]}'.` };
  return { action: verb, period: period.data, unit };
}

function normalisePeriod(word: string | undefined): string | undefined {
  const w = word?.toLowerCase();
  if (w === 'daily' || w === 'today') return 'day';
  if (w === 'monthly') return 'month';
  return w;
}

function parseUnit(word: string): BudgetUnit | null {
  const w = word.toLowerCase();
  if (w === 'usd' || w === '$' || w === 'dollars' || w === 'dollar' || w === 'money') return 'usd';
  if (w === 'tokens' || w === 'token' || w === 'tok') return 'tokens';
  return null;
}

/** `10`, `$10`, `2.5`, `200k`, `1.5m`. */
function parseLimit(text: string): { limit: number; unit: BudgetUnit | null } | null {
  const m = /^(\$)?(\d+(?:\.\d+)?|\.\d+)([km])?$/i.exec(text.replaceAll(',', '').replaceAll('_', ''));
  if (!m) return null;
  const scale = m[3] ? (m[3].toLowerCase() === 'k' ? 1e3 : 1e6) : 1;
  const limit = Number(m[2]) * scale;
  if (!(limit > 0) || !Number.isFinite(limit)) return null;
  return { limit, unit: m[1] ? 'usd' : null };
}
