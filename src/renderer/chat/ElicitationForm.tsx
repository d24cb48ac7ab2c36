import { useId, useRef, useState } from 'react';
import './elicitation.css';
import {
  checkElicitation,
  type ElicitationAnswer,
  type ElicitationField,
  type ElicitationQuestion,
  type ElicitationValue,
  elicitationDefaults,
} from '../../shared/elicitation/index.ts';

type Values = Record<string, ElicitationValue | undefined>;
const TEXT_INPUT = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' } as const;

function FieldInput({
  field,
  id,
  value,
  problem,
  onChange,
  onLeave,
  autoFocus,
}: {
  autoFocus: boolean;
  field: ElicitationField;
  id: string;
  value: ElicitationValue | undefined;
  problem: string | undefined;
  onChange: (value: ElicitationValue | undefined) => void;
  onLeave: () => void;
}) {
  const label = field.title ?? field.name;
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;
  const described = [field.description ? hintId : null, problem ? problemId : null].filter(Boolean).join(' ') || undefined;
  const common = { id, autoFocus, 'aria-describedby': described, 'aria-invalid': problem ? true : undefined, onBlur: onLeave } as const;
  let control;
  switch (field.kind) {
    case 'text':
      control = (
        <input
          {...common}
          type={field.format ? TEXT_INPUT[field.format] : 'text'}
          value={typeof value === 'string' ? value : ''}
          required={field.required}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'number':
    case 'integer':
      control = (
        <input
          {...common}
          type="number"
          step={field.kind === 'integer' ? 1 : 'any'}
          min={field.minimum}
          max={field.maximum}
          value={typeof value === 'number' ? value : ''}
          required={field.required}
          onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
        />
      );
      break;
    case 'boolean':
      return (
        <div className="elicit-field elicit-check">
          <label htmlFor={id}>
            <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
            {label}
            {field.required && <span className="elicit-required"> (required)</span>}
          </label>
          {field.description && (
            <span className="elicit-hint" id={hintId}>
              {field.description}
            </span>
          )}
          {problem && (
            <span className="elicit-problem" id={problemId} role="alert">
              {problem}
            </span>
          )}
        </div>
      );
    case 'choice':
      control = (
        <select {...common} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}>
          {(!field.required || value === undefined) && <option value="">{field.required ? 'Choose…' : '(none)'}</option>}
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'choices': {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <fieldset className="elicit-field elicit-choices" aria-describedby={described} onBlur={onLeave}>
          <legend>
            {label}
            {field.required && <span className="elicit-required"> (required)</span>}
          </legend>
          {field.description && (
            <span className="elicit-hint" id={hintId}>
              {field.description}
            </span>
          )}
          {field.options.map((o, i) => (
            <label key={o.value} htmlFor={i === 0 ? id : `${id}-${i}`}>
              <input
                id={i === 0 ? id : `${id}-${i}`}
                autoFocus={autoFocus && i === 0}
                type="checkbox"
                checked={chosen.includes(o.value)}
                onChange={(e) => onChange(e.target.checked ? [...chosen, o.value] : chosen.filter((c) => c !== o.value))}
              />
              {o.label}
            </label>
          ))}
          {problem && (
            <span className="elicit-problem" id={problemId} role="alert">
              {problem}
            </span>
          )}
        </fieldset>
      );
    }
  }
  return (
    <div className="elicit-field">
      <label htmlFor={id}>
        {label}
        {field.required && <span className="elicit-required"> (required)</span>}
      </label>
      {control}
      {field.description && (
        <span className="elicit-hint" id={hintId}>
          {field.description}
        </span>
      )}
      {problem && (
        <span className="elicit-problem" id={problemId} role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}

/**
 * A plugin's form (an MCP server's elicitation): who asks and why, its fields with their defaults filled in,
 * and Accept (checked here and again in main: a wrong field says what is wrong and takes the focus), Decline
 * and Cancel. `headingId` names the form for the dialog it sits in.
 */
export function ElicitationForm({
  question,
  onAnswer,
  headingId,
  autoFocus = false,
}: {
  question: ElicitationQuestion;
  onAnswer: (answer: ElicitationAnswer) => Promise<string | null>;
  headingId?: string;
  autoFocus?: boolean;
}) {
  const base = useId();
  const [values, setValues] = useState<Values>(() => elicitationDefaults(question.fields));
  const [shown, setShown] = useState<ReadonlySet<string>>(() => new Set());
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLFormElement>(null);
  const checked = checkElicitation(question.fields, values);
  const problems = checked.ok ? {} : checked.problems;
  const idOf = (name: string) => `${base}-${name}`;

  const send = async (answer: ElicitationAnswer) => {
    setBusy(true);
    try {
      setRefusal(await onAnswer(answer));
    } finally {
      setBusy(false);
    }
  };
  const accept = () => {
    if (!checked.ok) {
      setShown(new Set(question.fields.map((f) => f.name)));
      const first = question.fields.find((f) => f.name in problems);
      if (first) box.current?.querySelector<HTMLElement>(`#${CSS.escape(idOf(first.name))}`)?.focus();
      return;
    }
    void send({ action: 'accept', content: checked.content });
  };

  return (
    <form
      ref={box}
      className="elicit-form"
      data-testid="elicitation-form"
      aria-labelledby={headingId ?? `${base}-title`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        accept();
      }}
    >
      <div className="elicit-head">
        <h3 id={headingId ?? `${base}-title`}>
          <code>{question.source}</code> asks you
        </h3>
        {question.message && <p className="elicit-message">{question.message}</p>}
      </div>
      <div className="elicit-fields">
        {question.fields.map((field, i) => (
          <FieldInput
            key={field.name}
            field={field}
            id={idOf(field.name)}
            value={values[field.name]}
            problem={shown.has(field.name) ? problems[field.name] : undefined}
            onChange={(value) => setValues((v) => ({ ...v, [field.name]: value }))}
            onLeave={() => setShown((s) => (s.has(field.name) ? s : new Set([...s, field.name])))}
            autoFocus={autoFocus && i === 0}
          />
        ))}
      </div>
      {refusal && (
        <p className="elicit-problem" role="alert" data-testid="elicitation-refusal">
          {refusal}
        </p>
      )}
      <div className="elicit-actions">
        <button
          type="button"
          className="btn btn-small btn-ghost"
          disabled={busy}
          onClick={() => void send({ action: 'cancel' })}
          data-testid="elicitation-cancel"
        >
          Cancel
        </button>
        <button
          type="button"
          className="btn btn-small btn-danger-ghost"
          disabled={busy}
          onClick={() => void send({ action: 'decline' })}
          data-testid="elicitation-decline"
        >
          Decline
        </button>
        <button type="submit" className="btn btn-small btn-primary" disabled={busy} data-testid="elicitation-accept">
          Accept
        </button>
      </div>
    </form>
  );
}
