import { useEffect } from 'react';
import { Icon } from '../ui/index.ts';
import { InstructionsSection } from './InstructionsSection.tsx';
import { McpSection } from './McpSection.tsx';
import { PluginsSection } from './PluginsSection.tsx';
import { PolicySection } from './PolicySection.tsx';
import { SandboxSection } from './SandboxSection.tsx';
import './settings.css';

interface Props {
  sessionId: string | null;
  /** Opens the provider setup form (the one first run shows). */
  onSetupProvider(): void;
  onClose(): void;
}

/** Settings over the chat column: plugins (live), the user plugin folder, the provider, the tool policy. */
export function SettingsView({ sessionId, onSetupProvider, onClose }: Props) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented && !document.querySelector('.modal-backdrop')) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div className="settings-view" role="region" aria-label="Settings" data-testid="settings">
      <div className="settings-inner">
        <header className="settings-head">
          <h1>Settings</h1>
          <span className="spacer" />
          <button type="button" className="btn btn-ghost btn-small" onClick={onClose} data-testid="close-settings">
            <Icon name="x" size={14} /> Close <kbd>Esc</kbd>
          </button>
        </header>
        <PluginsSection />
        <McpSection />
        <section className="settings-section" aria-labelledby="settings-provider">
          <h2 id="settings-provider">Model provider</h2>
          <p className="muted settings-lead">Where replies come from: the address, the key and the model for new conversations. Keys stay on this computer.</p>
          <div>
            <button type="button" className="btn" onClick={onSetupProvider} data-testid="setup-provider">
              <Icon name="settings" size={14} /> Set up a provider…
            </button>
          </div>
        </section>
        <InstructionsSection sessionId={sessionId} />
        <PolicySection sessionId={sessionId} />
        <SandboxSection sessionId={sessionId} />
      </div>
    </div>
  );
}
