import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import type { PluginConfigView } from '../../shared/api/index.ts';
import {
  type ConfigField,
  type ConfigValue,
  configFields,
  type NumberSetting,
  type NumberUnit,
  parseSettingText,
  secretBindings,
} from '../../shared/plugins/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { Icon } from '../ui/index.ts';

/** What the user has typed into one field: text for most, a flag for a checkbox, a request to clear a secret. */
type Draft = { kind: 'text'; text: string } | { kind: 'flag'; on: boolean } | { kind: 'clear' };

const asText = (value: ConfigValue | undefined): string => (value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value));

const isFraction = (field: ConfigField): boolean => (field.setting.type === 'number' || field.setting.type === 'integer') && field.setting.unit === 'fraction';

/** A fraction as a percentage (0.8 → 80), rounded past float noise. */
const toPercent = (n: number): number => Math.round(n * 100 * 1e6) / 1e6;

/** A fraction as the percentage the form shows (0.8 → "80"). */
const asPercent = (value: ConfigValue | undefined): string => (typeof value === 'number' ? String(toPercent(value)) : asText(value));

/** What a number means, shown beside its field: a prefix ($) or a suffix (tokens, %, ms…). */
const UNIT_ADORNMENT: Record<NumberUnit, { prefix?: string; suffix?: string; name: string }> = {
  usd: { prefix: '$', name: 'dollars' },
  tokens: { suffix: 'tokens', name: 'tokens' },
  fraction: { suffix: '%', name: 'percent' },
  ms: { suffix: 'ms', name: 'milliseconds' },
  seconds: { suffix: 's', name: 'seconds' },
  minutes: { suffix: 'min', name: 'minutes' },
};

/** A fraction's bounds as a percentage range, in words ("above 0 and at most 100"). */
function percentRange(setting: NumberSetting): string {
  const low =
    setting.exclusiveMinimum !== undefined
      ? `above ${toPercent(setting.exclusiveMinimum)}`
      : setting.minimum !== undefined
        ? `at least ${toPercent(setting.minimum)}`
        : null;
  const high =
    setting.exclusiveMaximum !== undefined
      ? `below ${toPercent(setting.exclusiveMaximum)}`
      : setting.maximum !== undefined
        ? `at most ${toPercent(setting.maximum)}`
        : null;
  return [low, high].filter(Boolean).join(' and ');
}

/**
 * Descriptions said once per group: a description two or more fields of a group share is shown under the
 * group's heading (and tied to each of those fields for screen readers) instead of under each field.
 */
const descriptionKey = (f: ConfigField): string => `${f.group ?? ''}\n${f.setting.description ?? ''}`;

function sharedDescriptions(fields: readonly ConfigField[]): Map<string | null, string[]> {
  const key = descriptionKey;
  const counts = new Map<string, number>();
  for (const f of fields) if (f.setting.description) counts.set(key(f), (counts.get(key(f)) ?? 0) + 1);
  const out = new Map<string | null, string[]>();
  for (const f of fields) {
    const d = f.setting.description;
    if (!d || (counts.get(key(f)) ?? 0) < 2) continue;
    const list = out.get(f.group) ?? [];
    if (!list.includes(d)) out.set(f.group, [...list, d]);
  }
  return out;
}

/** The value a draft stands for: null resets the setting to its default (or clears a secret); undefined changes nothing. */
function draftValue(field: ConfigField, draft: Draft): { value: ConfigValue | null | undefined; problem: string | null } {
  if (draft.kind === 'clear') return { value: null, problem: null };
  if (draft.kind === 'flag') return { value: draft.on, problem: null };
  const secret = field.setting.type === 'string' && field.setting.secret === true;
  if (draft.text.trim() === '') return { value: secret ? undefined : null, problem: null };
  const title = field.setting.title ?? field.key;
  if (isFraction(field) && (field.setting.type === 'number' || field.setting.type === 'integer')) {
    // Typed as a percentage, kept as the fraction the plugin declared.
    const percent = Number(draft.text.trim().replace(/%$/, '').trim());
    if (!Number.isFinite(percent)) return { value: undefined, problem: `${title} must be a percentage.` };
    const parsed = parseSettingText(field.setting, String(percent / 100));
    return parsed.ok ? { value: parsed.value, problem: null } : { value: undefined, problem: `${title} must be a percentage ${percentRange(field.setting)}.` };
  }
  const parsed = parseSettingText(field.setting, draft.text);
  return parsed.ok ? { value: parsed.value, problem: null } : { value: undefined, problem: `${title} ${parsed.problem}.` };
}

/**
 * A plugin's settings as a form built from the schema its manifest declares. Each field is checked as it is
 * typed (the reason shows under it) and again by main on save; secrets show only whether they are set.
 */
export function PluginConfigForm({ pluginId, name, onClose }: { pluginId: string; name: string; onClose: () => void }) {
  const api = useApi();
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
  // Said beside Save once the change is stored, until the next edit.
  const [saved, setSaved] = useState(false);
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
      setSaved(true);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  const set = (key: string, draft: Draft | null) => {
    setSaved(false);
    setDrafts((d) => {
      const n = { ...d };
      if (draft) n[key] = draft;
      else delete n[key];
      return n;
    });
  };
  const shared = sharedDescriptions(fields);
  // A group's own description is said once under its heading, before what its fields share.
  for (const node of Object.entries(view?.schema.properties ?? {})) {
    const [groupName, group] = node;
    if (group.type !== 'object' || !group.description) continue;
    const title = group.title ?? groupName;
    shared.set(title, [group.description, ...(shared.get(title) ?? [])]);
  }

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
        const groupHints = shared.get(f.group) ?? [];
        const groupHintId = (i: number) => `${formId}-group-${f.group ?? ''}-${i}`;
        const heading =
          f.group !== lastGroup ? (
            <div key={`g:${f.group ?? ''}`} className="config-group-head">
              <h4>{f.group ?? 'General'}</h4>
              {groupHints.map((d, i) => (
                <p key={d} id={groupHintId(i)} className="hint" data-testid="plugin-config-group-hint">
                  {d}
                </p>
              ))}
            </div>
          ) : null;
        lastGroup = f.group;
        // A field says its group's help through the group's hint: the one it shares, or the group's own when it has none.
        const sharedIndex = f.setting.description ? groupHints.indexOf(f.setting.description) : groupHints.length > 0 ? 0 : -1;
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
              {...(sharedIndex >= 0 ? { groupHintId: groupHintId(sharedIndex) } : {})}
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
          {saved && !dirty && (
            <span className="config-saved" role="status" data-testid="plugin-config-saved">
              <Icon name="check" size={13} /> Saved
            </span>
          )}
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
  /** The group's hint that says this field's description (said once for the group), in place of its own. */
  groupHintId?: string;
}) {
  const { id, field, stored, secretSet, draft, problem, notice, onDraft, groupHintId } = props;
  const s = field.setting;
  const label = s.title ?? field.key;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const ownHint = s.description !== undefined && groupHintId === undefined;
  const describedBy = [ownHint ? hintId : (groupHintId ?? null), problem ? errorId : null].filter(Boolean).join(' ') || undefined;
  const shown = isFraction(field) ? asPercent : asText;
  const fallback = s.default !== undefined ? `default: ${shown(s.default)}` : undefined;
  const text = draft?.kind === 'text' ? draft.text : shown(stored);
  const [revealed, setRevealed] = useState(false);
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
          type={revealed ? 'text' : 'password'}
          autoComplete="off"
          spellCheck={false}
          value={draft?.kind === 'text' ? draft.text : ''}
          placeholder={cleared ? 'will be cleared' : secretSet ? '•••••••• (set; type to replace)' : 'not set'}
          aria-describedby={describedBy}
          aria-invalid={problem ? true : undefined}
          onChange={(e) => onDraft(e.target.value === '' ? null : { kind: 'text', text: e.target.value })}
          data-key={field.key}
        />
        {draft?.kind === 'text' && (
          // Shows what was typed, to check it; a stored secret never comes back to the window, so there is nothing else to show.
          <button
            type="button"
            className="btn btn-small btn-ghost"
            aria-pressed={revealed}
            aria-label={revealed ? `Hide the ${label}` : `Show the ${label}`}
            onClick={() => setRevealed((r) => !r)}
            data-testid="secret-toggle"
          >
            {revealed ? 'Hide' : 'Show'}
          </button>
        )}
        {secretSet && !cleared && (
          <button type="button" className="btn btn-small" onClick={() => onDraft({ kind: 'clear' })}>
            Clear
          </button>
        )}
      </span>
    );
  } else {
    const input = (
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
    const unit = (s.type === 'number' || s.type === 'integer') && s.unit ? UNIT_ADORNMENT[s.unit] : null;
    control = unit ? (
      <span className="config-number">
        {unit.prefix && (
          <span className="config-unit" title={unit.name}>
            {unit.prefix}
          </span>
        )}
        {input}
        {unit.suffix && (
          <span className="config-unit" title={unit.name}>
            {unit.suffix}
          </span>
        )}
      </span>
    ) : (
      input
    );
  }
  return (
    <div className={`field config-field${s.type === 'boolean' ? ' is-check' : ''}`} data-testid="plugin-config-field" data-key={field.key}>
      <label htmlFor={id}>{label}</label>
      {control}
      {ownHint && (
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
