import { useId } from 'react';
import { useApi } from '../api/index.ts';
import { useSettingsChannel } from '../server-state/index.ts';

const KEY = ['conversationSettings'] as const;

/** Settings' switch of generated titles: whether a conversation is named by its model after the first reply. */
export function TitlesSection() {
  const api = useApi();
  const labelId = useId();
  const { data, save: set } = useSettingsChannel(
    KEY,
    { read: 'whether conversations get titles', write: 'the titles switch' },
    () => api.call('conversations.settings', {}),
    (autoTitle: boolean) => api.call('conversations.setAutoTitle', { autoTitle }),
  );
  const on = data?.autoTitle ?? true;
  return (
    <section className="settings-section" aria-labelledby="settings-titles" data-testid="settings-titles">
      <h2 id="settings-titles">Titles</h2>
      <div className="plugin-list">
        <div className="plugin-row">
          <div className="plugin-main">
            <strong id={labelId}>Name new conversations</strong>
            <p className="plugin-desc">
              After the first reply, the conversation's model suggests a short title for the sidebar (one more small request). A name you give yourself always
              stays. Also /set conversations.autoTitle on|off.
            </p>
          </div>
          <button
            type="button"
            role="switch"
            aria-checked={on}
            aria-labelledby={labelId}
            className={`switch${on ? ' is-on' : ''}`}
            disabled={data === undefined}
            onClick={() => void set(!on)}
            data-testid="auto-title-enabled"
          >
            <span />
          </button>
        </div>
      </div>
    </section>
  );
}
