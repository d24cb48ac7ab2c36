import { Children, type ReactNode } from 'react';
import type { AllowanceView } from '../../shared/api/index.ts';
import { formatMoney } from './WalletsPanel.tsx';
import { useAllowances } from './use-panels-data.ts';

function amount(a: AllowanceView, value: number): string {
  if (a.measure === 'money') return formatMoney(value, a.unit.length === 3 ? a.unit.toUpperCase() : 'USD');
  if (a.unit === '%') return `${Math.round(value * 10) / 10}%`;
  return `${Math.round(value).toLocaleString()} ${a.unit}`;
}

function resetText(a: AllowanceView): string | null {
  if (a.resetsAt !== null)
    return `resets ${new Date(a.resetsAt).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })}`;
  if (a.period === 'session') return 'resets with a new conversation';
  if (a.period === 'day') return 'resets at midnight';
  if (a.period === 'month') return 'resets on the 1st';
  return null;
}

/** Each allowance's spend against its limit as a bar, its scope and unit, and when it resets. */
export function AllowancesPanel({ children }: { children?: ReactNode }) {
  const allowances = useAllowances();
  return (
    <section className="side-card" data-testid="allowances-panel" aria-labelledby="allowances-title">
      <header className="side-card-head">
        <h3 id="allowances-title">Allowances</h3>
      </header>
      {allowances.length === 0 && Children.count(children) === 0 && <p className="side-empty">No allowance: a plugin such as Budget limits spending here.</p>}
      {allowances.map((a) => {
        const share = a.limit > 0 ? Math.min(1, a.spent / a.limit) : 1;
        const level = share >= 1 ? 'full' : share >= 0.8 ? 'high' : 'ok';
        const reset = resetText(a);
        return (
          <div key={a.id} className="allowance" data-testid="allowance" data-id={a.id} data-level={level}>
            <div className="allowance-line">
              <span className="allowance-name">{a.id}</span>
              <span className="allowance-amount">
                {amount(a, a.spent)} <span className="muted">of {amount(a, a.limit)}</span>
              </span>
            </div>
            <div
              className={`bar bar-${level}`}
              role="progressbar"
              aria-valuemin={0}
              aria-valuemax={a.limit}
              aria-valuenow={a.spent}
              aria-label={`${a.id} used`}
            >
              <span style={{ width: `${share * 100}%` }} />
            </div>
            <div className="allowance-meta">
              <span className="chip">{a.scope === '*' ? 'every provider' : (a.account ?? a.scope)}</span>
              {a.period && <span className="chip">{a.period}</span>}
              <span className="chip">{a.measure === 'other' ? a.unit : a.measure}</span>
              {reset && <span className="muted">{reset}</span>}
            </div>
          </div>
        );
      })}
      {children}
    </section>
  );
}
