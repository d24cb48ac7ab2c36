import { Icon } from '../ui/index.ts';
import { AllowancesPanel } from './AllowancesPanel.tsx';
import { PluginPanel } from './PluginPanel.tsx';
import { WalletsPanel } from './WalletsPanel.tsx';
import { usePanelConcepts, usePanels } from './use-panels-data.ts';
import './panels.css';

/** The side column of panels: wallets, allowances, then every other panel a plugin contributes, live. */
export function PanelsView({ onClose }: { onClose: () => void }) {
  // A panel whose id ends in `.settings` belongs to its plugin's row in Settings → Plugins.
  const panels = usePanels().filter((p) => !p.id.endsWith('.settings'));
  const concepts = usePanelConcepts();
  const about = (concept: string) => panels.filter((p) => concepts.get(p.pluginId) === concept);
  const embed = (list: typeof panels) => list.map((p) => <PluginPanel key={`${p.pluginId}:${p.id}`} panel={p} embedded />);
  return (
    <aside className="side-panels" data-testid="panels" aria-label="Panels">
      <div className="panel-head">
        <div className="panel-title">
          <strong>Panels</strong>
          <span className="small">Balances, limits and plugin views</span>
        </div>
        <button type="button" className="icon-btn" aria-label="Close panels" onClick={onClose}>
          <Icon name="x" />
        </button>
      </div>
      <div className="side-scroll">
        <WalletsPanel>{embed(about('wallet'))}</WalletsPanel>
        <AllowancesPanel>{embed(about('allowance'))}</AllowancesPanel>
        {panels
          .filter((p) => !concepts.has(p.pluginId))
          .map((p) => (
            <PluginPanel key={`${p.pluginId}:${p.id}`} panel={p} />
          ))}
      </div>
    </aside>
  );
}
