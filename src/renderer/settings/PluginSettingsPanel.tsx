import { useState } from 'react';
import { PluginPanel, usePanels } from '../panels/index.ts';
import './plugin-settings-panel.css';

/**
 * A plugin's own panel in its Settings row (a panel whose id ends in `.settings`, left out of the Panels column),
 * folded under its title: drawn only once opened, so listing the plugins starts no plugin's process.
 */
export function PluginSettingsPanel({ pluginId, panelId, title }: { pluginId: string; panelId: string; title: string }) {
  const [open, setOpen] = useState(false);
  const panels = usePanels();
  const panel = panels.find((p) => p.pluginId === pluginId && p.id === panelId);
  return (
    <details className="plugin-settings-panel" data-testid="plugin-settings-panel" data-id={panelId} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{panel?.title ?? title}</summary>
      {open && (panel ? <PluginPanel panel={panel} embedded /> : <p className="muted small">…</p>)}
    </details>
  );
}
