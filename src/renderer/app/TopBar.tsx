import type { SessionSummary } from '../../shared/sessions/index.ts';
import { sessionTitle } from '../sessions/index.ts';
import { Icon } from '../ui/index.ts';
import { WorkspaceButton } from '../workspace/index.ts';

export type SideColumn = 'none' | 'tree' | 'panels';

interface Props {
  active: SessionSummary | null;
  connected: boolean;
  /** Offers "Set up a model" when no provider is configured. */
  providerConfigured: boolean;
  side: SideColumn;
  sidebarShown: boolean;
  settingsOpen: boolean;
  resolvedTheme: 'light' | 'dark';
  onSetUpModel(): void;
  onViewPrompt(): void;
  onOpenPalette(): void;
  onToggleSide(column: Exclude<SideColumn, 'none'>): void;
  onToggleSidebar(): void;
  onToggleTheme(): void;
  onToggleSettings(): void;
}

/** The bar above the chat: the conversation's title and folder, the connection, and the app's buttons. */
export function TopBar({ active, connected, providerConfigured, side, sidebarShown, settingsOpen, resolvedTheme, ...on }: Props) {
  return (
    <header className="topbar">
      <button
        type="button"
        className={`icon-btn${sidebarShown ? ' is-on' : ''}`}
        aria-label={sidebarShown ? 'Hide the sidebar' : 'Show the sidebar'}
        aria-expanded={sidebarShown}
        title={`${sidebarShown ? 'Hide' : 'Show'} the sidebar: your conversations (Ctrl+B)`}
        onClick={on.onToggleSidebar}
        data-testid="toggle-sidebar"
      >
        <Icon name="sidebar" />
      </button>
      <div className="topbar-title" data-testid="session-title">
        {active ? sessionTitle(active) : 'Amber'}
      </div>
      {active && <WorkspaceButton key={active.id} session={active} />}
      {!connected && (
        <span className="chip chip-error" role="status">
          Reconnecting…
        </span>
      )}
      <span className="spacer" />
      {!providerConfigured && (
        <button type="button" className="btn btn-ghost btn-small" onClick={on.onSetUpModel}>
          <Icon name="settings" size={14} /> Set up a model
        </button>
      )}
      <button
        type="button"
        className="icon-btn"
        aria-label="View prompt"
        title="View prompt: what the model was told in the last request"
        disabled={!active}
        onClick={on.onViewPrompt}
        data-testid="view-prompt"
      >
        <Icon name="info" />
      </button>
      <button
        type="button"
        className="icon-btn"
        aria-label="Commands"
        title="Commands: every action and slash command (Ctrl+Shift+P)"
        onClick={on.onOpenPalette}
        data-testid="open-palette"
      >
        <Icon name="command" />
      </button>
      <button
        type="button"
        className={`icon-btn${side === 'panels' ? ' is-on' : ''}`}
        aria-label="Panels"
        title="Panels: wallets, allowances and plugin panels (Ctrl+Shift+B)"
        onClick={() => on.onToggleSide('panels')}
        data-testid="toggle-panels"
      >
        <Icon name="panel" />
      </button>
      <button
        type="button"
        className={`icon-btn${side === 'tree' ? ' is-on' : ''}`}
        aria-label="Conversation tree"
        title="Conversation tree: every branch of this conversation (Ctrl+Shift+T)"
        disabled={!active}
        onClick={() => on.onToggleSide('tree')}
        data-testid="toggle-tree"
      >
        <Icon name="branch" />
      </button>
      <button
        type="button"
        className="icon-btn"
        aria-label={resolvedTheme === 'dark' ? 'Light theme' : 'Dark theme'}
        title={`${resolvedTheme === 'dark' ? 'Light' : 'Dark'} theme (Ctrl+Shift+L)`}
        onClick={on.onToggleTheme}
        data-testid="toggle-theme"
      >
        <Icon name={resolvedTheme === 'dark' ? 'sun' : 'moon'} />
      </button>
      <button
        type="button"
        className={`icon-btn${settingsOpen ? ' is-on' : ''}`}
        aria-label="Settings"
        title="Settings (Ctrl+,)"
        onClick={on.onToggleSettings}
        data-testid="open-settings"
      >
        <Icon name="settings" />
      </button>
    </header>
  );
}
