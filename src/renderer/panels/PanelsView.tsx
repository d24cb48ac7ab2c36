import { Icon } from '../ui/Icon.tsx';
import { AllowancesPanel } from './AllowancesPanel.tsx';
import { PluginPanel } from './PluginPanel.tsx';
import { WalletsPanel } from './WalletsPanel.tsx';
import { usePanels } from './use-panels-data.ts';
import './panels.css';

/** The side column of panels: wallets, allowances, then every panel a plugin contributes, live. */
export function PanelsView({ onClose }: { onClose: () => void }) {
  const panels = usePanels();
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
        <WalletsPanel />
        <AllowancesPanel />
        {panels.map((p) => (
          <PluginPanel key={`${p.pluginId}:${p.id}`} panel={p} />
        ))}
      </div>
    </aside>
  );
}
