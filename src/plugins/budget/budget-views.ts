import type { PanelViewModel, StatusSegment } from '../../workers/sdk/index.ts';
import { describeReset, periodAdjective } from './budget-period.ts';
import { type BudgetStatus, formatAmount, raisedLimit } from './budget-status.ts';

export const BUDGET_PANEL_ID = 'budget';
export const BUDGET_SEGMENT_ID = 'budget';

export interface BudgetViewInput {
  statuses: BudgetStatus[];
  now: Date;
  /** The session a session budget is counted for; null before any run. */
  sessionId: string | null;
  /** Sentences about saving (not saved anywhere, a file set aside, a failed write) and ignored settings. */
  notes: string[];
}

type Row = PanelViewModel['sections'][number]['rows'][number];

/** The allowances panel: one section per budget (bar, scope, unit, reset), and raise/reset actions for each. */
export function budgetPanel(input: BudgetViewInput): PanelViewModel {
  const sections: PanelViewModel['sections'] = input.statuses.map((s) => {
    const { budget } = s;
    const rows: Row[] = [
      { type: 'progress', label: progressLabel(s), value: Math.min(s.spent, budget.limit), max: budget.limit },
      {
        type: 'keyValue',
        key: 'Scope',
        value: budget.period === 'session' ? `session${input.sessionId ? ` (${input.sessionId})` : ' (none running yet)'}` : budget.period,
      },
      { type: 'keyValue', key: 'Unit', value: budget.unit === 'usd' ? 'money (USD)' : 'tokens' },
      { type: 'keyValue', key: 'Resets', value: describeReset(budget.period, input.now) },
    ];
    if (s.message) rows.push({ type: 'text', text: `${s.level === 'exhausted' ? '⛔' : '⚠'} ${s.message}` });
    return { title: title(s), rows };
  });
  if (sections.length === 0) {
    sections.push({
      rows: [
        {
          type: 'text',
          text: 'No budgets are set. Set limits in Settings → Plugins → Budget → Settings, or with /budget set day 5 (dollars) or /budget set session 200k tokens.',
        },
      ],
    });
  }
  if (input.notes.length) sections.push({ title: 'Notes', rows: input.notes.map((text) => ({ type: 'text' as const, text })) });
  const actions = input.statuses.flatMap(({ budget, spent }) => [
    {
      id: `raise.${budget.id}`,
      label: `Raise the ${periodAdjective(budget.period)} ${budget.unit === 'usd' ? 'money' : 'token'} limit to ${formatAmount(budget.unit, raisedLimit(budget.limit, spent))}`,
    },
    { id: `reset.${budget.id}`, label: `Reset the ${periodAdjective(budget.period)} ${budget.unit === 'usd' ? 'spend' : 'token count'}` },
  ]);
  return { id: BUDGET_PANEL_ID, title: 'Allowances', sections, actions };
}

/** The status bar shows the budget closest to its limit; the tooltip lists them all. */
export function budgetSegment(input: BudgetViewInput): StatusSegment {
  const tightest = [...input.statuses].sort((a, b) => b.fraction - a.fraction)[0];
  if (!tightest)
    return {
      id: BUDGET_SEGMENT_ID,
      // Nothing to say: the status bar leaves an empty segment out.
      text: '',
      tooltip: 'No spending budget is set: set one in Settings → Plugins → Budget → Settings, or with /budget set day 5.',
      priority: 30,
    };
  const mark = tightest.level === 'exhausted' ? '⛔ ' : tightest.level === 'warning' ? '⚠ ' : '';
  const { budget } = tightest;
  const short =
    budget.unit === 'usd' ? `${formatAmount('usd', tightest.spent)}/${formatAmount('usd', budget.limit)}` : `${Math.floor(tightest.fraction * 100)}% of tokens`;
  const tooltip = input.statuses.map((s) => `${title(s)}: ${progressLabel(s)}, resets ${describeReset(s.budget.period, input.now)}`).join('\n');
  return { id: BUDGET_SEGMENT_ID, text: `${mark}${capitalise(budget.period)} ${short}`, tooltip, priority: 30 };
}

function title(s: BudgetStatus): string {
  return `${capitalise(periodAdjective(s.budget.period))} budget (${s.budget.unit === 'usd' ? 'money' : 'tokens'})`;
}

function progressLabel(s: BudgetStatus): string {
  return `${formatAmount(s.budget.unit, s.spent)} of ${formatAmount(s.budget.unit, s.budget.limit)} (${Math.floor(s.fraction * 100)}%)`;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
