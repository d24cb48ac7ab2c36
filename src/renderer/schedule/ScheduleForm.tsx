import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useApi } from '../api/index.ts';
import { ModelOptions, useModelList } from '../models/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { useToasts } from '../ui/index.ts';
import type { ScheduledTask } from '../../shared/schedule/index.ts';
import { buildSchedule, choiceOf, DEFAULT_CHOICE, type ScheduleChoice } from './schedule-builder.ts';
import { ToolPicker, toolsProblem } from './ToolPicker.tsx';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
/** The week as the form lists it, Monday first. */
const WEEK = [1, 2, 3, 4, 5, 6, 0] as const;

interface Props {
  /** The open conversation: its folder and model are the form's first values. */
  sessionId: string | null;
  /** The task to change; absent: a new one. */
  task?: ScheduledTask;
  onDone(): void;
}

/** The form that adds or changes a scheduled task: name, prompt, project or folder, model, schedule and the tools it may use. */
export function ScheduleForm({ sessionId, task, onDone }: Props) {
  const api = useApi();
  const toasts = useToasts();
  const id = useId();
  const session = useQuery({
    queryKey: ['scheduleForm', 'session', sessionId],
    queryFn: () => api.call('sessions.get', { sessionId: sessionId! }),
    enabled: !!sessionId,
  });
  // The open conversation's model is the first value; the choices need no conversation.
  const conversationModel = useQuery({
    queryKey: serverKeys.models(sessionId ?? ''),
    queryFn: () => api.call('chat.models', { sessionId: sessionId! }),
    enabled: !!sessionId,
  });
  const accounts = useModelList()?.accounts ?? [];
  const projects = useQuery({ queryKey: ['scheduleForm', 'projects'], queryFn: () => api.call('projects.list', {}) });
  const offered = useQuery({ queryKey: ['scheduleForm', 'tools'], queryFn: () => api.call('tools.list', {}), staleTime: 0 });
  const [name, setName] = useState(task?.name ?? '');
  const [prompt, setPrompt] = useState(task?.prompt ?? '');
  const [place, setPlace] = useState<string>(task?.project ?? 'folder');
  const [folder, setFolder] = useState<string | null>(task && !task.project ? task.folder : null);
  // Editing: the task's model, or none (the project's or the default one).
  const [model, setModel] = useState<string | null>(task ? (task.model ?? '') : null);
  const [choice, setChoice] = useState<ScheduleChoice>(() => (task ? choiceOf(task.schedule) : DEFAULT_CHOICE));
  const [tools, setTools] = useState<string[]>(task?.tools ?? []);
  const [busy, setBusy] = useState(false);
  const built = buildSchedule(choice);
  const folderValue = folder ?? session.data?.cwd ?? '';
  const current = conversationModel.data?.current ? `${conversationModel.data.current.provider}/${conversationModel.data.current.modelId}` : '';
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
  const problem = missing ?? ('problem' in built ? built.problem : null) ?? toolsProblem(offered.data?.tools ?? [], tools);
  const listed = accounts.flatMap((a) => a.models);
  // A model the task names that no account lists now stays a choice, so opening the form never changes it.
  const unlisted = modelValue !== '' && !listed.some((m) => `${m.provider}/${m.modelId}` === modelValue) ? modelValue : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (problem || !('text' in built)) return;
    setBusy(true);
    try {
      const fields = {
        name,
        prompt,
        ...(place === 'folder' ? { folder: folderValue } : { project: place }),
        model: modelValue === '' ? null : modelValue,
        schedule: built.text,
        tools,
      };
      const saved = task ? await api.call('schedule.update', { id: task.id, task: fields }) : await api.call('schedule.add', fields);
      const next = saved.paused ? 'paused' : 'it runs while Amber runs';
      toasts.push({ kind: 'success', title: task ? `Saved “${saved.name}”` : `Scheduled “${saved.name}”`, message: `${saved.when}; ${next}.` });
      onDone();
    } catch (err) {
      toasts.error(task ? 'Could not save the task' : 'Could not schedule the task', err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="schedule-form" aria-label={task ? `Edit ${task.name}` : 'New scheduled task'} onSubmit={(e) => void submit(e)} data-testid="schedule-form">
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
            {unlisted && <option value={unlisted}>{unlisted} (not listed now)</option>}
            <ModelOptions accounts={accounts} />
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
      <ToolPicker offered={offered.data?.tools ?? []} entries={tools} onChange={setTools} />
      {problem && <p className="hint field-notice">{problem}</p>}
      <div className="schedule-form-actions">
        <button type="button" className="btn btn-ghost" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy || problem !== null}>
          {task ? 'Save' : 'Schedule'}
        </button>
      </div>
    </form>
  );
}
