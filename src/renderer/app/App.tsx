import { useCallback, useEffect, useRef, useState } from 'react';
import type { Bootstrap } from '../../shared/api/index.ts';
import type { SessionSummary } from '../../shared/sessions/index.ts';
import { useApi } from '../api/index.ts';
import { TreeView } from '../branches/index.ts';
import { ApprovalDialog, ChatView, type ComposerHandle, PromptViewer } from '../chat/index.ts';
import { CommandPalette, CommandsProvider, useCommands } from '../commands/index.ts';
import { PanelsView } from '../panels/index.ts';
import { SessionSidebar, type SidebarHandle, sessionTitle, useSessions } from '../sessions/index.ts';
import { FirstRun, SettingsView } from '../settings/index.ts';
import { StatusBar } from '../status/index.ts';
import { Icon } from '../ui/Icon.tsx';
import { applyTheme, loadTheme, type ThemeChoice } from '../ui/theme.ts';
import { useToasts } from '../ui/Toasts.tsx';
import { WorkspaceButton } from '../workspace/index.ts';
import { useShortcuts } from './use-shortcuts.ts';

const SKIP_SETUP_KEY = 'amber.setupSkipped';

export function App() {
  const api = useApi();
  const toasts = useToasts();
  const [boot, setBoot] = useState<Bootstrap | null>(null);
  const [bootError, setBootError] = useState<string | null>(null);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [treeOpen, setTreeOpen] = useState(false);
  // The side column shows the tree or the panels; settings cover the chat column.
  const [panelsOpen, setPanelsOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [setupOpen, setSetupOpen] = useState(false);
  const [promptOpen, setPromptOpen] = useState(false);
  const [theme, setTheme] = useState<ThemeChoice>(loadTheme);
  const [resolvedTheme, setResolvedTheme] = useState<'light' | 'dark'>('light');
  const [connected, setConnected] = useState(true);
  const [setupSkipped, setSetupSkipped] = useState(() => localStorage.getItem(SKIP_SETUP_KEY) === '1');
  const { sessions, query, setQuery, loading } = useSessions();
  const sidebar = useRef<SidebarHandle>(null);
  const composer = useRef<ComposerHandle>(null);
  const setPaletteOpen = useRef<(open: boolean) => void>(() => {});

  useEffect(() => setResolvedTheme(applyTheme(theme)), [theme]);
  useEffect(() => api.onConnectionChange(setConnected), [api]);

  useEffect(() => {
    api.call('app.bootstrap', {}).then(
      (b) => {
        setBoot(b);
        setActiveId(b.lastSessionId);
      },
      (e: unknown) => setBootError(e instanceof Error ? e.message : String(e)),
    );
  }, [api]);

  // The open session stays open while a search hides it from the list.
  const [fetched, setFetched] = useState<SessionSummary | null>(null);
  const listed = sessions.find((s) => s.id === activeId);
  useEffect(() => {
    if (!activeId || listed) return;
    let live = true;
    api.call('sessions.get', { sessionId: activeId }).then(
      (s) => live && setFetched(s),
      () => live && setActiveId(null),
    );
    return () => {
      live = false;
    };
  }, [api, activeId, listed]);
  const active = listed ?? (fetched?.id === activeId ? fetched : null);

  const select = useCallback(
    (id: string) => {
      setActiveId(id);
      api.call('sessions.open', { sessionId: id }).catch((e: unknown) => toasts.error('Could not open the conversation', e));
    },
    [api, toasts],
  );

  const newChat = useCallback(async () => {
    try {
      const s = await api.call('sessions.create', {});
      setQuery('');
      setActiveId(s.id);
      requestAnimationFrame(() => composer.current?.focus());
    } catch (e) {
      toasts.error('Could not start a new chat', e);
    }
  }, [api, setQuery, toasts]);

  const rename = useCallback(
    (id: string, title: string) => {
      api.call('sessions.rename', { sessionId: id, title }).catch((e: unknown) => toasts.error('Could not rename the conversation', e));
    },
    [api, toasts],
  );

  const remove = useCallback(
    async (id: string) => {
      const s = sessions.find((x) => x.id === id);
      try {
        await api.call('sessions.delete', { sessionId: id });
      } catch (e) {
        toasts.error('Could not delete the conversation', e);
        return;
      }
      if (id === activeId) setActiveId(null);
      toasts.push({
        kind: 'info',
        title: `Deleted “${s ? sessionTitle(s) : 'conversation'}”`,
        timeoutMs: 8000,
        action: {
          label: 'Undo',
          run: () => {
            api.call('sessions.restore', { sessionId: id }).then(
              () => select(id),
              (e: unknown) => toasts.error('Could not bring it back', e),
            );
          },
        },
      });
    },
    [api, activeId, select, sessions, toasts],
  );

  const removeNow = useCallback((id: string) => void remove(id), [remove]);

  useShortcuts({
    'mod+n': () => void newChat(),
    'mod+k': () => sidebar.current?.focusSearch(),
    'mod+shift+t': () => {
      setPanelsOpen(false);
      setTreeOpen((v) => !v);
    },
    'mod+shift+b': () => {
      setTreeOpen(false);
      setPanelsOpen((v) => !v);
    },
    'mod+shift+p': () => setPaletteOpen.current(true),
    'mod+,': () => setSettingsOpen((v) => !v),
    'mod+shift+l': () => setTheme((t) => (resolvedTheme === 'dark' || (t === 'dark') ? 'light' : 'dark')),
    'mod+l': () => composer.current?.focus(),
  });

  if (bootError) {
    return (
      <div className="fatal" role="alert">
        <h1>Amber could not start</h1>
        <p>{bootError}</p>
        <button type="button" className="btn btn-primary" onClick={() => location.reload()}>
          Try again
        </button>
      </div>
    );
  }
  if (!boot) return <div className="booting" aria-busy="true" />;

  if ((!boot.providerConfigured && !setupSkipped) || setupOpen) {
    return (
      <FirstRun
        onDone={(model) => {
          setSetupOpen(false);
          setBoot({ ...boot, providerConfigured: true });
          // A first setup goes straight to a conversation, ready to type; a later one returns where the user was.
          if (setupOpen) toasts.push({ kind: 'success', title: 'Provider saved', message: `Amber will talk to ${model}.` });
          else void newChat();
        }}
        onSkip={() => {
          if (setupOpen) return setSetupOpen(false);
          localStorage.setItem(SKIP_SETUP_KEY, '1');
          setSetupSkipped(true);
        }}
      />
    );
  }

  return (
    <CommandsProvider sessionId={activeId} onOpenSession={select}>
      <PaletteOpener setter={setPaletteOpen} />
      <div className={`layout${treeOpen || panelsOpen ? ' with-tree' : ''}`}>
        <SessionSidebar
          ref={sidebar}
          sessions={sessions}
          query={query}
          loading={loading}
          activeId={activeId}
          onQuery={setQuery}
          onSelect={select}
          onNew={() => void newChat()}
          onRename={rename}
          onDelete={removeNow}
        />
        <main className="main">
          <header className="topbar">
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
            {!boot.providerConfigured && (
              <button type="button" className="btn btn-ghost btn-small" onClick={() => {
                localStorage.removeItem(SKIP_SETUP_KEY);
                setSetupSkipped(false);
              }}>
                <Icon name="settings" size={14} /> Set up a model
              </button>
            )}
            <button type="button" className="icon-btn" aria-label="View prompt" title="What the model was told in the last request" disabled={!active} onClick={() => setPromptOpen(true)} data-testid="view-prompt">
              <Icon name="info" />
            </button>
            <button type="button" className="icon-btn" aria-label="Commands" title="Commands (Ctrl+Shift+P)" onClick={() => setPaletteOpen.current(true)} data-testid="open-palette">
              <Icon name="command" />
            </button>
            <button
              type="button"
              className={`icon-btn${panelsOpen ? ' is-on' : ''}`}
              aria-label="Panels"
              title="Wallets, allowances and plugin panels (Ctrl+Shift+B)"
              onClick={() => {
                setTreeOpen(false);
                setPanelsOpen((v) => !v);
              }}
              data-testid="toggle-panels"
            >
              <Icon name="panel" />
            </button>
            <button type="button" className={`icon-btn${treeOpen ? ' is-on' : ''}`} aria-label="Conversation tree" title="Tree (Ctrl+Shift+T)" disabled={!active} onClick={() => { setPanelsOpen(false); setTreeOpen((v) => !v); }} data-testid="toggle-tree">
              <Icon name="branch" />
            </button>
            <button
              type="button"
              className="icon-btn"
              aria-label={resolvedTheme === 'dark' ? 'Light theme' : 'Dark theme'}
              title="Theme (Ctrl+Shift+L)"
              onClick={() => setTheme(resolvedTheme === 'dark' ? 'light' : 'dark')}
              data-testid="toggle-theme"
            >
              <Icon name={resolvedTheme === 'dark' ? 'sun' : 'moon'} />
            </button>
            <button type="button" className={`icon-btn${settingsOpen ? ' is-on' : ''}`} aria-label="Settings" title="Settings (Ctrl+,)" onClick={() => setSettingsOpen((v) => !v)} data-testid="open-settings">
              <Icon name="settings" />
            </button>
          </header>
          <ChatView key={activeId ?? 'none'} session={active} agentAvailable={boot.agentAvailable && boot.providerConfigured} composerRef={composer} onNewChat={() => void newChat()} />
          <StatusBar sessionId={activeId} />
          {settingsOpen && <SettingsView sessionId={activeId} onSetupProvider={() => setSetupOpen(true)} onClose={() => setSettingsOpen(false)} />}
        </main>
        {panelsOpen ? <PanelsView onClose={() => setPanelsOpen(false)} /> : treeOpen && active && <TreeView key={active.id} sessionId={active.id} onClose={() => setTreeOpen(false)} />}
        <ApprovalDialog />
        {promptOpen && active && <PromptViewer sessionId={active.id} onClose={() => setPromptOpen(false)} />}
      </div>
      <CommandPalette />
    </CommandsProvider>
  );
}

/** Lets the app's shortcuts and top bar open the palette that lives inside the commands provider. */
function PaletteOpener({ setter }: { setter: React.RefObject<(open: boolean) => void> }) {
  const commands = useCommands();
  useEffect(() => {
    setter.current = (open) => commands?.setPaletteOpen(open);
  }, [commands, setter]);
  return null;
}
