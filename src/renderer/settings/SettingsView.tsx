import { useEffect, useRef, useState } from 'react';
import { TitlesSection } from '../sessions/index.ts';
import { Icon, type ThemeChoice } from '../ui/index.ts';
import { AppearanceSection } from './AppearanceSection.tsx';
import { InstructionsSection } from './InstructionsSection.tsx';
import { McpSection } from './McpSection.tsx';
import { PluginProcessesSection } from './PluginProcessesSection.tsx';
import { PluginsSection } from './PluginsSection.tsx';
import { PolicySection } from './PolicySection.tsx';
import { ProvidersSection } from './ProvidersSection.tsx';
import { SandboxSection } from './SandboxSection.tsx';
import { PlanSection } from './PlanSection.tsx';
import { SubagentsSection } from './SubagentsSection.tsx';
import { SkillsSection } from './SkillsSection.tsx';
import { ContextSection } from './ContextSection.tsx';
import { ScheduleSection } from '../schedule/index.ts';
import { ProjectsSection } from '../projects/index.ts';
import { SETTINGS_PAGES, type SettingsPage, settingsPageAfterKey } from './settings-pages.ts';
import './settings.css';

interface Props {
  sessionId: string | null;
  /** The theme chosen (light, dark or the system's) and how to change it. */
  theme: ThemeChoice;
  onTheme(theme: ThemeChoice): void;
  /** The page it opens on; default Models. */
  initialPage?: SettingsPage;
  /** Opens the provider setup form (the one first run shows). */
  onSetupProvider(): void;
  onClose(): void;
  /** Opens a conversation (a scheduled run's): Settings closes first. */
  onOpenSession?(sessionId: string): void;
}

/**
 * Settings over the chat column: a list of pages on the left (a vertical tab list: arrow keys move, Home
 * and End jump), the chosen page on the right with its own heading. It opens on Models, what people change most.
 */
export function SettingsView({ sessionId, theme, onTheme, initialPage = 'models', onSetupProvider, onClose, onOpenSession }: Props) {
  const [page, setPage] = useState<SettingsPage>(initialPage);
  const tabs = useRef(new Map<SettingsPage, HTMLButtonElement>());
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented && !document.querySelector('.modal-backdrop')) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  // Opened, the focus goes to the page list: the arrow keys move between pages, Tab goes into the page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when Settings opens
  useEffect(() => tabs.current.get(page)?.focus(), []);

  const choose = (next: SettingsPage, focus: boolean) => {
    setPage(next);
    if (focus) tabs.current.get(next)?.focus();
  };

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
        <div className="settings-body">
          <div className="settings-nav" role="tablist" aria-orientation="vertical" aria-label="Settings pages" data-testid="settings-nav">
            {SETTINGS_PAGES.map((p) => (
              <button
                key={p.id}
                ref={(el) => {
                  if (el) tabs.current.set(p.id, el);
                  else tabs.current.delete(p.id);
                }}
                type="button"
                role="tab"
                id={`settings-tab-${p.id}`}
                aria-selected={page === p.id}
                aria-controls="settings-page"
                tabIndex={page === p.id ? 0 : -1}
                className={`settings-tab${page === p.id ? ' is-current' : ''}`}
                onClick={() => choose(p.id, false)}
                onKeyDown={(e) => {
                  const next = settingsPageAfterKey(page, e.key);
                  if (next === null) return;
                  e.preventDefault();
                  choose(next, true);
                }}
                data-testid={`settings-tab-${p.id}`}
              >
                {p.title}
              </button>
            ))}
          </div>
          <div
            className="settings-page"
            role="tabpanel"
            id="settings-page"
            aria-labelledby={`settings-tab-${page}`}
            data-page={page}
            data-testid="settings-page"
          >
            {page === 'models' && <ProvidersSection onAdd={onSetupProvider} />}
            {page === 'conversations' && <InstructionsSection sessionId={sessionId} />}
            {page === 'conversations' && <TitlesSection />}
            {page === 'conversations' && <PlanSection />}
            {page === 'conversations' && <SubagentsSection />}
            {page === 'conversations' && <SkillsSection sessionId={sessionId} />}
            {page === 'conversations' && <ContextSection />}
            {page === 'projects' && <ProjectsSection />}
            {page === 'policy' && <PolicySection sessionId={sessionId} />}
            {page === 'plugins' && <PluginsSection />}
            {page === 'mcp' && <McpSection />}
            {page === 'schedule' && <ScheduleSection sessionId={sessionId} {...(onOpenSession ? { onOpenSession } : {})} />}
            {page === 'memory' && (
              <section className="settings-section" aria-labelledby="settings-memory" data-testid="settings-memory">
                <h2 id="settings-memory">Memory</h2>
                <p className="muted settings-lead">
                  Coming later. Amber remembers nothing between conversations yet: each one starts from your instructions (under Conversations and tools) and
                  what you write in it.
                </p>
              </section>
            )}
            {page === 'appearance' && <AppearanceSection theme={theme} onTheme={onTheme} />}
            {page === 'advanced' && <SandboxSection sessionId={sessionId} />}
            {page === 'advanced' && <PluginProcessesSection />}
          </div>
        </div>
      </div>
    </div>
  );
}
