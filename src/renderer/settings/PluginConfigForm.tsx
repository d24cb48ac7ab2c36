import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import type { PluginConfigView } from '../../shared/api/index.ts';
import { type ConfigField, type ConfigValue, configFields, parseSettingText, secretBindings } from '../../shared/plugins/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { useToasts } from '../ui/index.ts';

/** What the user has typed into one field: text for most, a flag for a checkbox, a request to clear a secret. */
type Draft = { kind: 'text'; text: string } | { kind: 'flag'; on: boolean } | { kind: 'clear' };

const asText = (value: ConfigValue | undefined): string => (value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value));

/** The value a draft stands for: null resets the setting to its default (or clears a secret); undefined changes nothing. */
function draftValue(field: ConfigField, draft: Draft): { value: ConfigValue | null | undefined; problem: string | null } {
  if (draft.kind === 'clear') return { value: null, problem: null };
  if (draft.kind === 'flag') return { value: draft.on, problem: null };
  const secret = field.setting.type === 'string' && field.setting.secret === true;
  if (draft.text.trim() === '') return { value: secret ? undefined : null, problem: null };
  const parsed = parseSettingText(field.setting, draft.text);
  return parsed.ok ? { value: parsed.value, problem: null } : { value: undefined, problem: `${field.setting.title ?? field.key} ${parsed.problem}.` };
}

/**
 * A plugin's settings as a form built from the schema its manifest declares. Each field is checked as it is
 * typed (the reason shows under it) and again by main on save; secrets show only whether they are set.
 */
export function PluginConfigForm({ pluginId, name, onClose }: { pluginId: string; name: string; onClose: () => void }) {
  const api = useApi();
  const toasts = useToasts();
  const formId = useId();
  const queries = useQueryClient();
  // Read each time the form opens; changed elsewhere (another window, /set), plugins.configChanged has it
  // read again: the stored values show, what the user is typing stays.
  const query = useQuery({ queryKey: serverKeys.pluginConfig(pluginId), queryFn: () => api.call('plugins.getConfig', { id: pluginId }), staleTime: 0 });
  const view: PluginConfigView | null = query.data ?? null;
  const setView = (next: PluginConfigView) => queries.setQueryData(serverKeys.pluginConfig(pluginId), next);
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [saving, setSaving] = useState(false);
  const [saveError, setError] = useState<string | null>(null);
  const error = saveError ?? (query.error ? query.error.message : null);

  const fields = useMemo(() => (view ? configFields(view.schema) : []), [view]);
  const checked = useMemo(() => {
    const out = new Map<string, { value: ConfigValue | null | undefined; problem: string | null }>();
    for (const f of fields) {
      const d = drafts[f.key];
      if (d) out.set(f.key, draftValue(f, d));
    }
    return out;
  }, [fields, drafts]);
  const problems = [...checked.values()].filter((c) => c.problem !== null).length;
  const changes = Object.fromEntries(
    [...checked].filter(([, c]) => c.value !== undefined && c.problem === null).map(([k, c]) => [k, c.value as ConfigValue | null]),
  );
  const dirty = Object.keys(changes).length > 0;
  // A stored secret bound to a setting being changed is dropped on save unless a new one is typed: said
  // under that setting before the user saves.
  const drops = new Map<string, string[]>();
  if (view) {
    const titles = new Map(fields.map((f) => [f.key, f.setting.title ?? f.key]));
    for (const { secret, target } of secretBindings(view.schema)) {
      if (view.secrets[secret] !== true || !Object.hasOwn(changes, target) || typeof changes[secret] === 'string') continue;
      if (JSON.stringify(changes[target] ?? undefined) === JSON.stringify(view.values[target])) continue;
      drops.set(target, [...(drops.get(target) ?? []), titles.get(secret) ?? secret]);
    }
  }

  const save = async () => {
    if (!dirty || problems > 0 || saving) return;
    setSaving(true);
    setError(null);
    try {
      const next = await api.call('plugins.setConfig', { id: pluginId, values: changes });
      setView(next);
      setDrafts({});
      toasts.push({ kind: 'info', title: `Saved ${name}'s settings` });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  const set = (key: string, draft: Draft | null) =>
    setDrafts((d) => {
      const n = { ...d };
      if (draft) n[key] = draft;
      else delete n[key];
      return n;
    });

  let lastGroup: string | null = null;
  return (
    <form
      className="plugin-config"
      aria-label={`${name} settings`}
      data-testid="plugin-config-form"
      data-plugin={pluginId}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {!view && !error && <div className="skeleton" />}
      {fields.map((f) => {
        // Settings outside a group that follow one get a heading of their own, so they are not read as the group's.
        const heading = f.group !== lastGroup ? <h4 key={`g:${f.group ?? ''}`}>{f.group ?? 'General'}</h4> : null;
        lastGroup = f.group;
        return (
          <div key={f.key} className="config-field-wrap">
            {heading}
            <ConfigInput
              id={`${formId}-${f.key}`}
              field={f}
              stored={view!.values[f.key]}
              secretSet={view!.secrets[f.key] === true}
              draft={drafts[f.key]}
              problem={checked.get(f.key)?.problem ?? null}
              notice={drops.has(f.key) ? `Changing the ${f.setting.title ?? f.key} drops the stored ${drops.get(f.key)!.join(' and ')}; enter it again.` : null}
              onDraft={(d) => set(f.key, d)}
            />
          </div>
        );
      })}
      {error && (
        <p className="plugin-reason" role="alert" data-testid="plugin-config-error">
          {error}
        </p>
      )}
      {view && (
        <div className="settings-row">
          <button
            type="submit"
            className="btn btn-primary btn-small"
            aria-disabled={!dirty || problems > 0 || saving || undefined}
            data-testid="plugin-config-save"
          >
            {saving ? <span className="spinner" /> : null} Save
          </button>
          <button type="button" className="btn btn-small" onClick={onClose}>
            Close
          </button>
        </div>
      )}
    </form>
  );
}

function ConfigInput(props: {
  id: string;
  field: ConfigField;
  stored: ConfigValue | undefined;
  secretSet: boolean;
  draft: Draft | undefined;
  problem: string | null;
  /** What saving this field's change does besides (a stored secret it drops). */
  notice: string | null;
  onDraft: (draft: Draft | null) => void;
}) {
  const { id, field, stored, secretSet, draft, problem, notice, onDraft } = props;
  const s = field.setting;
  const label = s.title ?? field.key;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [s.description ? hintId : null, problem ? errorId : null].filter(Boolean).join(' ') || undefined;
  const fallback = s.default !== undefined ? `default: ${asText(s.default)}` : undefined;
  const text = draft?.kind === 'text' ? draft.text : asText(stored);
  let control;
  if (s.type === 'boolean') {
    const on = draft?.kind === 'flag' ? draft.on : ((stored as boolean | undefined) ?? s.default ?? false);
    control = (
      <input
        id={id}
        type="checkbox"
        checked={on}
        aria-describedby={describedBy}
        onChange={(e) => onDraft({ kind: 'flag', on: e.target.checked })}
        data-key={field.key}
      />
    );
  } else if (s.type === 'string' && s.enum) {
    control = (
      <select id={id} value={text} aria-describedby={describedBy} onChange={(e) => onDraft({ kind: 'text', text: e.target.value })} data-key={field.key}>
        <option value="">{fallback ? `(${fallback})` : '(not set)'}</option>
        {s.enum.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else if (s.type === 'string' && s.secret) {
    const cleared = draft?.kind === 'clear';
    control = (
      <span className="config-secret">
        <input
          id={id}
          type="password"
          autoComplete="off"
          value={draft?.kind === 'text' ? draft.text : ''}
          placeholder={cleared ? 'will be cleared' : secretSet ? '•••••••• (set; type to replace)' : 'not set'}
          aria-describedby={describedBy}
          aria-invalid={problem ? true : undefined}
          onChange={(e) => onDraft(e.target.value === '' ? null : { kind: 'text', text: e.target.value })}
          data-key={field.key}
        />
        {secretSet && !cleared && (
          <button type="button" className="btn btn-small" onClick={() => onDraft({ kind: 'clear' })}>
            Clear
          </button>
        )}
      </span>
    );
  } else {
    control = (
      <input
        id={id}
        type="text"
        inputMode={s.type === 'number' || s.type === 'integer' ? 'decimal' : undefined}
        value={text}
        placeholder={s.type === 'array' ? `comma-separated${fallback ? `; ${fallback}` : ''}` : fallback}
        aria-describedby={describedBy}
        aria-invalid={problem ? true : undefined}
        onChange={(e) => onDraft({ kind: 'text', text: e.target.value })}
        data-key={field.key}
      />
    );
  }
  return (
    <div className={`field config-field${s.type === 'boolean' ? ' is-check' : ''}`} data-testid="plugin-config-field" data-key={field.key}>
      <label htmlFor={id}>{label}</label>
      {control}
      {s.description && (
        <span id={hintId} className="hint">
          {s.description}
        </span>
      )}
      {problem && (
        <span id={errorId} className="field-error" role="alert" data-testid="plugin-config-field-error">
          {problem}
        </span>
      )}
      {notice && (
        <span className="hint field-notice" role="status" data-testid="plugin-config-field-notice">
          {notice}
        </span>
      )}
    </div>
  );
}
