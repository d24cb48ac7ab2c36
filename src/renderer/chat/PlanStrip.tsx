import { useId, useState } from 'react';
import { doneCount, type PlanItem } from '../../shared/plan/index.ts';
import { Icon } from '../ui/index.ts';
import { usePlan } from './use-plan.ts';
import './plan-strip.css';

const STATUS_WORDS = { done: 'done', in_progress: 'in progress', pending: 'to do' } as const;

/**
 * The plan the agent keeps with the todo tool, above the message box: a compact checklist that updates live,
 * done items struck through and the one in progress highlighted. Folds to one line (the count and the step
 * in progress). Shows nothing while the branch has no plan.
 */
export function PlanStrip({ sessionId }: { sessionId: string }) {
  const plan = usePlan(sessionId);
  const [open, setOpen] = useState(true);
  const listId = useId();
  const items = plan?.items ?? [];
  if (items.length === 0) return null;
  const done = doneCount(items);
  const current = items.find((i) => i.status === 'in_progress');
  return (
    <section className="plan-strip" data-testid="plan-strip" aria-label="Plan">
      <button type="button" className="plan-strip-head" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((o) => !o)}>
        <span className={`plan-strip-chevron${open ? ' is-open' : ''}`} aria-hidden="true">
          ›
        </span>
        <span className="plan-strip-title">Plan</span>
        <span className="plan-strip-count" data-testid="plan-count">
          {done} of {items.length} done
        </span>
        {!open && current && <span className="plan-strip-now">{current.text}</span>}
        <span className="plan-strip-bar" aria-hidden="true">
          <span style={{ width: `${Math.round((done / items.length) * 100)}%` }} />
        </span>
      </button>
      {/* Screen readers hear the progress as it changes, without the focus moving. */}
      <span className="sr-only" aria-live="polite" data-testid="plan-announce">
        {done} of {items.length} done{current ? `; now: ${current.text}` : ''}
      </span>
      {open && (
        <ol className="plan-strip-items" id={listId}>
          {items.map((item, i) => (
            <PlanRow key={`${i}:${item.text}`} item={item} />
          ))}
        </ol>
      )}
    </section>
  );
}

function PlanRow({ item }: { item: PlanItem }) {
  return (
    <li className="plan-item" data-status={item.status} aria-current={item.status === 'in_progress' ? 'step' : undefined}>
      <span className="plan-item-mark" aria-hidden="true">
        {item.status === 'done' ? <Icon name="check" size={12} /> : item.status === 'in_progress' ? <span className="plan-item-dot" /> : null}
      </span>
      {item.status === 'done' ? <s className="plan-item-text">{item.text}</s> : <span className="plan-item-text">{item.text}</span>}
      <span className="sr-only"> ({STATUS_WORDS[item.status]})</span>
    </li>
  );
}
