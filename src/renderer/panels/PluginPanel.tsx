import { useEffect, useState } from 'react';
import type { PanelView } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { GlyphText, useToasts } from '../ui/index.ts';

/**
 * A panel a plugin contributes, drawn from its view model; its buttons run the plugin's actions. Embedded, it
 * is part of the card of its concept (wallets, allowances): no card and no title of its own, only its source.
 */
export function PluginPanel({ panel, embedded = false }: { panel: PanelView; embedded?: boolean }) {
  const api = useApi();
  const toasts = useToasts();
  const [busy, setBusy] = useState<string | null>(null);
  // A plugin that starts when its panel is opened (onPanel) is told the panel is shown; its content follows.
  useEffect(() => {
    void api.call('panels.opened', { panelId: panel.id }).catch(() => {});
  }, [api, panel.id]);
  const act = async (actionId: string, label: string) => {
    setBusy(actionId);
    try {
      await api.call('panels.action', { panelId: panel.id, actionId });
    } catch (e) {
      toasts.error(`${label} failed`, e);
    } finally {
      setBusy(null);
    }
  };
  return (
    <section
      className={embedded ? 'side-embedded' : 'side-card'}
      data-testid="plugin-panel"
      data-id={panel.id}
      data-plugin={panel.pluginId}
      aria-label={embedded ? `${panel.title} from ${panel.pluginId}` : undefined}
    >
      {embedded ? (
        <span className="chip side-source">from {panel.pluginId}</span>
      ) : (
        <header className="side-card-head">
          <h3>{panel.title}</h3>
          <span className="chip">{panel.pluginId}</span>
        </header>
      )}
      {panel.sections.map((section, i) => (
        <div key={i} className="panel-section">
          {section.title && <h4>{section.title}</h4>}
          {section.rows.map((row, j) => {
            if (row.type === 'text' && row.actions && row.actions.length > 0)
              return (
                <div key={j} className="panel-item" data-testid="panel-item">
                  <p className="panel-text">
                    <GlyphText text={row.text} />
                  </p>
                  <div className="panel-item-actions">
                    {row.actions.map((a) => (
                      <button
                        key={a.id}
                        type="button"
                        className="btn btn-small"
                        aria-disabled={busy !== null || undefined}
                        onClick={() => busy === null && void act(a.id, a.label)}
                        data-testid="panel-row-action"
                        data-action={a.id}
                      >
                        {busy === a.id && <span className="spinner" />}
                        {a.label}
                      </button>
                    ))}
                  </div>
                </div>
              );
            if (row.type === 'text')
              return (
                <p key={j} className="panel-text">
                  <GlyphText text={row.text} />
                </p>
              );
            if (row.type === 'keyValue')
              return (
                <div key={j} className="panel-kv">
                  <span className="muted">{row.key}</span>
                  <span>{row.value}</span>
                </div>
              );
            const share = Math.max(0, Math.min(1, row.value / row.max));
            return (
              <div key={j} className="panel-progress">
                <div className="panel-kv">
                  <span className="muted">{row.label}</span>
                  <span>
                    {row.value} / {row.max}
                  </span>
                </div>
                <div
                  className={`bar bar-${share >= 1 ? 'full' : share >= 0.8 ? 'high' : 'ok'}`}
                  role="progressbar"
                  aria-valuemin={0}
                  aria-valuemax={row.max}
                  aria-valuenow={row.value}
                  aria-label={row.label}
                >
                  <span style={{ width: `${share * 100}%` }} />
                </div>
              </div>
            );
          })}
        </div>
      ))}
      {panel.actions.length > 0 && (
        <div className="panel-actions">
          {panel.actions.map((a) => (
            <button
              key={a.id}
              type="button"
              className="btn btn-small"
              aria-disabled={busy !== null || undefined}
              onClick={() => busy === null && void act(a.id, a.label)}
              data-testid="panel-action"
            >
              {busy === a.id && <span className="spinner" />}
              {a.label}
            </button>
          ))}
        </div>
      )}
    </section>
  );
}
