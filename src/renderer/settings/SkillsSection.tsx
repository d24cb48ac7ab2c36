import type { SkillView } from '../../shared/skills/index.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useApi } from '../api/index.ts';
import { useSettingsChannel } from '../server-state/index.ts';
import { useToasts } from '../ui/index.ts';

const STATE_NOTE = {
  on: null,
  off: null,
  waiting: 'It came with the workspace: read its SKILL.md, then confirm it to offer it to the model.',
  changed: 'Changed since you confirmed it: read it again, then confirm it.',
} as const;

/**
 * The skills the model may load (yours, and the open conversation's workspace's), each with its switch; a
 * workspace skill not confirmed says so instead. The refused ones are named with the reason.
 */
export function SkillsSection({ sessionId }: { sessionId: string | null }) {
  const api = useApi();
  const { data, save } = useSettingsChannel(
    ['skills', sessionId ?? ''],
    { read: 'the skills', write: 'the skill switch' },
    () => api.call('skills.list', { sessionId }),
    (change: { name: string; enabled: boolean }) => api.call('skills.setEnabled', { ...change, sessionId }),
  );
  const skills = data?.skills ?? [];
  const queries = useQueryClient();
  const toasts = useToasts();
  const confirm = async (name: string) => {
    if (!sessionId) return;
    try {
      queries.setQueryData(['skills', sessionId], await api.call('skills.confirm', { name, sessionId }));
    } catch (e) {
      toasts.error(`Could not confirm ${name}`, e);
    }
  };
  return (
    <section className="settings-section" aria-labelledby="settings-skills" data-testid="settings-skills">
      <h2 id="settings-skills">Skills</h2>
      <p className="hint">
        Folders with a SKILL.md in your Amber folder’s skills/ or the workspace’s .amber/skills/. The model sees one line per skill and loads one when it needs
        it. Also /skills.
      </p>
      {data !== undefined && skills.length === 0 && <p className="hint">No skill yet.</p>}
      <div className="plugin-list">
        {skills.map((s) => (
          <SkillRow
            key={`${s.source}:${s.name}`}
            skill={s}
            onSwitch={(enabled) => void save({ name: s.name, enabled })}
            onConfirm={() => void confirm(s.name)}
          />
        ))}
      </div>
      {(data?.problems.length ?? 0) > 0 && (
        <ul className="hint" data-testid="skills-problems">
          {data!.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SkillRow({ skill, onSwitch, onConfirm }: { skill: SkillView; onSwitch(enabled: boolean): void; onConfirm(): void }) {
  const labelId = `skill-${skill.source}-${skill.name}`;
  const switchable = skill.state === 'on' || skill.state === 'off';
  const note = STATE_NOTE[skill.state];
  return (
    <div className="plugin-row" data-testid="skill-row" data-skill={skill.name} data-state={skill.state}>
      <div className="plugin-main">
        <strong id={labelId}>{skill.name}</strong>{' '}
        <span className="hint">
          {skill.source === 'user' ? 'yours' : 'this workspace'}, {skill.where}
        </span>
        <p className="plugin-desc">{skill.description}</p>
        {note && <p className="hint">{note}</p>}
      </div>
      {!switchable && (
        <button type="button" className="btn btn-small" onClick={onConfirm} aria-describedby={labelId} data-testid="skill-confirm">
          Confirm
        </button>
      )}
      {switchable && (
        <button
          type="button"
          role="switch"
          aria-checked={skill.state === 'on'}
          aria-labelledby={labelId}
          className={`switch${skill.state === 'on' ? ' is-on' : ''}`}
          onClick={() => onSwitch(skill.state !== 'on')}
          data-testid="skill-enabled"
        >
          <span />
        </button>
      )}
    </div>
  );
}
