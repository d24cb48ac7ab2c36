export { PanelsView } from './PanelsView.tsx';
export { WalletsPanel, formatMoney } from './WalletsPanel.tsx';
export { AllowancesPanel } from './AllowancesPanel.tsx';
export { PluginPanel } from './PluginPanel.tsx';
export { usePanels } from './use-panels-data.ts';
