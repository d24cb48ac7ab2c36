import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { PolicyMode, ThinkingLevel } from '../../shared/agent/index.ts';
import type { Project } from '../../shared/projects/index.ts';
import { useApi } from '../api/index.ts';
import { FolderField } from '../folders/index.ts';
import { ModelOptions, useModelList } from '../models/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { useToasts } from '../ui/index.ts';
import { useProjects } from './use-projects.ts';
import './projects.css';

const THINKING: readonly ThinkingLevel[] = ['off', 'low', 'medium', 'high'];
const MODES: readonly PolicyMode[] = ['read', 'write', 'yolo'];

interface Draft {
  name: string;
  folder: string;
  instructions: string;
  /** `account/model`, or '' for the app's default. */
  model: string;
  thinkingLevel: ThinkingLevel | '';
  policyMode: PolicyMode | '';
}

const draftOf = (p: Project | null): Draft => ({
  name: p?.name ?? '',
  folder: p?.folder ?? '',
  instructions: p?.instructions ?? '',
  model: p?.model ? `${p.model.provider}/${p.model.modelId}` : '',
  thinkingLevel: p?.thinkingLevel ?? '',
  policyMode: p?.policyMode ?? '',
});

/** The form that makes or changes a project: its name, folder, instructions and the defaults new conversations take. */
function ProjectForm({ project, others, onDone }: { project: Project | null; others: readonly Project[]; onDone(): void }) {
  const api = useApi();
  const toasts = useToasts();
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(project));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const accounts = useModelList()?.accounts ?? [];
  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  const save = async () => {
    setBusy(true);
    setProblem(null);
    const slash = draft.model.indexOf('/');
    const fields = {
      name: draft.name,
      folder: draft.folder,
      instructions: draft.instructions,
      model: slash > 0 ? { provider: draft.model.slice(0, slash), modelId: draft.model.slice(slash + 1) } : null,
      thinkingLevel: draft.thinkingLevel || null,
      policyMode: draft.policyMode || null,
    };
    try {
      if (project) await api.call('projects.update', { id: project.id, change: fields });
      else await api.call('projects.create', fields);
      onDone();
    } catch (e) {
      // The reason stays beside the form (a name or folder taken, a folder refused) so it can be fixed there.
      setProblem(e instanceof Error ? e.message : String(e));
      toasts.error(project ? `Could not change ${project.name}` : 'Could not create the project', e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="project-form"
      data-testid="project-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label className="field" htmlFor={`${id}-name`}>
        <span>Name</span>
      </label>
      <input id={`${id}-name`} className="input" value={draft.name} onChange={(e) => set({ name: e.target.value })} data-testid="project-name" />
      <label className="field" htmlFor={`${id}-folder`}>
        <span>Folder (conversations working in it belong to the project)</span>
      </label>
      <FolderField
        id={`${id}-folder`}
        value={draft.folder}
        onChange={(folder) => set({ folder })}
        // A folder belongs to one project at most: another project's is not offered.
        exclude={(f) => others.some((p) => p.id !== project?.id && p.folder === f)}
        placeholder="~/code/my-project"
        testId="project-folder"
        recentTestId="project-recent-folders"
      />
      <label className="field" htmlFor={`${id}-instructions`}>
        <span>Instructions (sent with every request in the project, after its AGENTS.md)</span>
      </label>
      <textarea
        id={`${id}-instructions`}
        className="input"
        rows={4}
        value={draft.instructions}
        onChange={(e) => set({ instructions: e.target.value })}
        data-testid="project-instructions"
      />
      <div className="project-defaults">
        <label className="field">
          <span>Model</span>
          <select className="input" value={draft.model} onChange={(e) => set({ model: e.target.value })} data-testid="project-model">
            <option value="">The app’s default</option>
            {draft.model && !accounts.some((a) => a.models.some((m) => `${m.provider}/${m.modelId}` === draft.model)) && (
              <option value={draft.model}>{draft.model}</option>
            )}
            <ModelOptions accounts={accounts} />
          </select>
        </label>
        <label className="field">
          <span>Thinking</span>
          <select
            className="input"
            value={draft.thinkingLevel}
            onChange={(e) => set({ thinkingLevel: e.target.value as Draft['thinkingLevel'] })}
            data-testid="project-thinking"
          >
            <option value="">The app’s default</option>
            {THINKING.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Policy</span>
          <select
            className="input"
            value={draft.policyMode}
            onChange={(e) => set({ policyMode: e.target.value as Draft['policyMode'] })}
            data-testid="project-policy"
          >
            <option value="">The app’s default</option>
            {MODES.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
      </div>
      {problem && (
        <p className="plugin-reason" role="alert" data-testid="project-problem">
          {problem}
        </p>
      )}
      <div className="settings-row">
        <button type="submit" className="btn btn-small btn-primary" aria-disabled={busy || undefined} data-testid="project-save">
          {busy ? <span className="spinner" /> : null} {project ? 'Save' : 'Create project'}
        </button>
        <button type="button" className="btn btn-small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * Settings → Projects: each project (a named folder) with its defaults and instructions, Edit and Remove, and
 * the form that makes a new one. Also `/project`.
 */
export function ProjectsSection() {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  const projects = useProjects();
  const connections = useQuery({ queryKey: serverKeys.providerConnections, queryFn: () => api.call('providers.connections', {}) }).data ?? [];
  // A model by its account's name (what the model picker groups by), its id while the account is unknown.
  const modelLabel = (m: NonNullable<Project['model']>) => {
    const account = connections.find((c) => c.id === m.provider);
    return account ? `${m.modelId} (${account.name})` : `${m.provider}/${m.modelId}`;
  };
  const [editing, setEditing] = useState<string | null>(null);
  const remove = async (p: Project) => {
    try {
      await api.call('projects.remove', { id: p.id });
    } catch (e) {
      toasts.error(`Could not remove ${p.name}`, e);
    }
  };
  const done = () => {
    setEditing(null);
    void queries.invalidateQueries({ queryKey: serverKeys.projects });
  };
  return (
    <section className="settings-section" aria-labelledby="settings-projects" data-testid="settings-projects">
      <h2 id="settings-projects">Projects</h2>
      <p className="muted settings-lead">
        A project is a folder with a name: its conversations are grouped together in the sidebar, and new ones started in it take its model, thinking level,
        policy and instructions. Also /project.
      </p>
      {projects.length === 0 && editing !== 'new' && <p className="hint">No project yet.</p>}
      <div className="plugin-list">
        {projects.map((p) => (
          <div key={p.id} className="plugin-row project-row" data-testid="project-row" data-project-id={p.id}>
            <div className="plugin-main">
              <strong>{p.name}</strong>
              <code className="provider-url">{p.folder}</code>
              <span className="muted small">
                {[
                  p.model ? `model ${modelLabel(p.model)}` : null,
                  p.thinkingLevel ? `thinking ${p.thinkingLevel}` : null,
                  p.policyMode ? `policy ${p.policyMode}` : null,
                  p.instructions ? 'instructions' : null,
                ]
                  .filter(Boolean)
                  .join(' · ') || 'the app’s defaults'}
              </span>
            </div>
            <div className="provider-actions">
              <button type="button" className="btn btn-small" aria-label={`Edit ${p.name}`} onClick={() => setEditing((e) => (e === p.id ? null : p.id))}>
                Edit
              </button>
              <button type="button" className="btn btn-small btn-danger-ghost" aria-label={`Remove ${p.name}`} onClick={() => void remove(p)}>
                Remove
              </button>
            </div>
            {/* Under the row, across its whole width: at 800 px beside the buttons it would be too narrow for its fields. */}
            {editing === p.id && (
              <div className="project-edit">
                <ProjectForm project={p} others={projects} onDone={done} />
              </div>
            )}
          </div>
        ))}
      </div>
      {editing === 'new' ? (
        <ProjectForm project={null} others={projects} onDone={done} />
      ) : (
        <div>
          <button type="button" className="btn" onClick={() => setEditing('new')} data-testid="project-add">
            New project…
          </button>
        </div>
      )}
    </section>
  );
}
