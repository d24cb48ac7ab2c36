import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { useToasts } from '../ui/index.ts';
import { buildSchedule, DEFAULT_CHOICE, type ScheduleChoice, toolList } from './schedule-builder.ts';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
/** The week as the form lists it, Monday first. */
const WEEK = [1, 2, 3, 4, 5, 6, 0] as const;

interface Props {
  /** The open conversation: its folder and model are the form's first values. */
  sessionId: string | null;
  onDone(): void;
}

/** The form that adds a scheduled task: name, prompt, project or folder, model, schedule and the tools it may use. */
export function ScheduleForm({ sessionId, onDone }: Props) {
  const api = useApi();
  const toasts = useToasts();
  const id = useId();
  const session = useQuery({
    queryKey: ['scheduleForm', 'session', sessionId],
    queryFn: () => api.call('sessions.get', { sessionId: sessionId! }),
    enabled: !!sessionId,
  });
  const models = useQuery({
    queryKey: serverKeys.models(sessionId ?? ''),
    queryFn: () => api.call('chat.models', { sessionId: sessionId! }),
    enabled: !!sessionId,
  });
  const projects = useQuery({ queryKey: ['scheduleForm', 'projects'], queryFn: () => api.call('projects.list', {}) });
  const [name, setName] = useState('');
  const [prompt, setPrompt] = useState('');
  const [place, setPlace] = useState<string>('folder');
  const [folder, setFolder] = useState<string | null>(null);
  const [model, setModel] = useState<string | null>(null);
  const [choice, setChoice] = useState<ScheduleChoice>(DEFAULT_CHOICE);
  const [tools, setTools] = useState('');
  const [busy, setBusy] = useState(false);
  const built = buildSchedule(choice);
  const folderValue = folder ?? session.data?.cwd ?? '';
  const current = models.data?.current ? `${models.data.current.provider}/${models.data.current.modelId}` : '';
  const modelValue = model ?? current;
  const set = (change: Partial<ScheduleChoice>) => setChoice((c) => ({ ...c, ...change }));
  const missing =
    name.trim() === ''
      ? 'Give the task a name.'
      : prompt.trim() === ''
        ? 'Write what the task asks.'
        : place === 'folder' && folderValue.trim() === ''
          ? 'Choose a folder.'
          : null;
  const problem = missing ?? ('problem' in built ? built.problem : null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (problem || !('text' in built)) return;
    setBusy(true);
    try {
      const task = await api.call('schedule.add', {
        name,
        prompt,
        ...(place === 'folder' ? { folder: folderValue } : { project: place }),
        model: modelValue === '' ? null : modelValue,
        schedule: built.text,
        tools: toolList(tools),
      });
      toasts.push({ kind: 'success', title: `Scheduled “${task.name}”`, message: `${task.when}; it runs while Amber runs.` });
      onDone();
    } catch (err) {
      toasts.error('Could not schedule the task', err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="schedule-form" aria-label="New scheduled task" onSubmit={(e) => void submit(e)} data-testid="schedule-form">
      <label className="field" htmlFor={`${id}-name`}>
        <span>Name</span>
      </label>
      <input id={`${id}-name`} className="input" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} placeholder="Morning summary" />
      <label className="field" htmlFor={`${id}-prompt`}>
        <span>Prompt</span>
      </label>
      <textarea
        id={`${id}-prompt`}
        className="textarea"
        rows={3}
        maxLength={20_000}
        value={prompt}
        onChange={(e) => setPrompt(e.target.value)}
        placeholder="Summarise yesterday’s commits into notes/today.md"
      />
      <div className="schedule-form-grid">
        <label className="field" htmlFor={`${id}-place`}>
          <span>Runs in</span>
          <select id={`${id}-place`} className="input" value={place} onChange={(e) => setPlace(e.target.value)}>
            <option value="folder">A folder</option>
            {(projects.data ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                Project {p.name}
              </option>
            ))}
          </select>
        </label>
        {place === 'folder' && (
          <label className="field" htmlFor={`${id}-folder`}>
            <span>Folder</span>
            <input id={`${id}-folder`} className="input mono" value={folderValue} onChange={(e) => setFolder(e.target.value)} placeholder="/home/you/project" />
          </label>
        )}
        <label className="field" htmlFor={`${id}-model`}>
          <span>Model</span>
          <select id={`${id}-model`} className="input" value={modelValue} onChange={(e) => setModel(e.target.value)}>
            <option value="">{place === 'folder' ? 'The default model' : 'The project’s model'}</option>
            {(models.data?.models ?? []).map((m) => (
              <option key={`${m.provider}/${m.modelId}`} value={`${m.provider}/${m.modelId}`}>
                {m.provider}/{m.modelId}
              </option>
            ))}
          </select>
        </label>
      </div>
      <fieldset className="schedule-when">
        <legend>When</legend>
        <select aria-label="How often" className="input" value={choice.kind} onChange={(e) => set({ kind: e.target.value as ScheduleChoice['kind'] })}>
          <option value="minutes">Every N minutes</option>
          <option value="hours">Every N hours</option>
          <option value="daily">Daily</option>
          <option value="weekly">Weekly</option>
        </select>
        {(choice.kind === 'minutes' || choice.kind === 'hours') && (
          <input
            aria-label={`Every how many ${choice.kind}`}
            className="input schedule-every"
            type="number"
            min={1}
            value={Number.isNaN(choice.every) ? '' : choice.every}
            onChange={(e) => set({ every: e.target.valueAsNumber })}
          />
        )}
        {choice.kind === 'weekly' && (
          <span className="schedule-days">
            {WEEK.map((d) => (
              <label key={d} className="chip">
                <input
                  type="checkbox"
                  checked={choice.days.includes(d)}
                  onChange={(e) => set({ days: e.target.checked ? [...choice.days, d] : choice.days.filter((x) => x !== d) })}
                />
                {DAYS[d]}
              </label>
            ))}
          </span>
        )}
        {(choice.kind === 'daily' || choice.kind === 'weekly') && (
          <input aria-label="At (local time)" className="input schedule-time" type="time" value={choice.time} onChange={(e) => set({ time: e.target.value })} />
        )}
        {'text' in built && <code className="schedule-rule">{built.text}</code>}
      </fieldset>
      <label className="field" htmlFor={`${id}-tools`}>
        <span>Tools it may use without asking</span>
      </label>
      <input
        id={`${id}-tools`}
        className="input mono"
        value={tools}
        onChange={(e) => setTools(e.target.value)}
        placeholder="read, grep, write, bash:npm test"
      />
      <p className="hint">
        Nobody is asked during a run: a tool not listed here is never run, and a shell command runs only under a prefix listed (bash:npm test).
      </p>
      {problem && <p className="hint field-notice">{problem}</p>}
      <div className="schedule-form-actions">
        <button type="button" className="btn btn-ghost" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy || problem !== null}>
          Schedule
        </button>
      </div>
    </form>
  );
}
