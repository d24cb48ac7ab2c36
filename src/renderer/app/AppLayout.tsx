import { useCallback, useEffect, useRef, useState } from 'react';
import type { Bootstrap } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { TreeView } from '../branches/index.ts';
import { ApprovalDialog, ChatView, type ComposerHandle, PromptViewer } from '../chat/index.ts';
import { CommandPalette, CommandsProvider, useCommands } from '../commands/index.ts';
import { PanelsView } from '../panels/index.ts';
import { SessionSidebar, type SidebarHandle, useSessions } from '../sessions/index.ts';
import { FirstRun, SandboxNotice, SettingsView } from '../settings/index.ts';
import { StatusBar } from '../status/index.ts';
import { applyTheme, loadTheme, type ThemeChoice, useToasts } from '../ui/index.ts';
import { type SideColumn, TopBar } from './TopBar.tsx';
import { useActiveSession } from './use-active-session.ts';
import { useShortcuts } from './use-shortcuts.ts';

const SKIP_SETUP_KEY = 'amber.setupSkipped';

/**
 * The app once it has booted: the provider setup while none is configured (or when asked for again), else
 * the conversations on the left, the chat with its top and status bars, and the side column. Its state
 * (open conversation, columns, theme) lives here, so it is where the user left it after a later setup.
 */
export function AppLayout({ boot: booted }: { boot: Bootstrap }) {
  const api = useApi();
  const toasts = useToasts();
  const [boot, setBoot] = useState(booted);
  const [setupOpen, setSetupOpen] = useState(false);
  const [setupSkipped, setSetupSkipped] = useState(() => localStorage.getItem(SKIP_SETUP_KEY) === '1');
  // The side column shows the tree or the panels; settings cover the chat column.
  const [side, setSide] = useState<SideColumn>('none');
  const [settingsOpen, setSettingsOpen] = useState(false);
  const openSettings = useCallback(() => setSettingsOpen(true), []);
  const [promptOpen, setPromptOpen] = useState(false);
  const [theme, setTheme] = useState<ThemeChoice>(loadTheme);
  const [resolvedTheme, setResolvedTheme] = useState<'light' | 'dark'>('light');
  const [connected, setConnected] = useState(true);
  const { sessions, query, setQuery, loading } = useSessions();
  const sidebar = useRef<SidebarHandle>(null);
  const composer = useRef<ComposerHandle>(null);
  const setPaletteOpen = useRef<(open: boolean) => void>(() => {});

  useEffect(() => setResolvedTheme(applyTheme(theme)), [theme]);
  useEffect(() => api.onConnectionChange(setConnected), [api]);

  const onCreated = useCallback(() => {
    setQuery('');
    // The new conversation's message box mounts (and is enabled) a few frames later: keep trying briefly.
    let frames = 0;
    const tryFocus = () => {
      if (composer.current?.focus() || ++frames > 180) return;
      requestAnimationFrame(tryFocus);
    };
    requestAnimationFrame(tryFocus);
  }, [setQuery]);
  const session = useActiveSession(booted.lastSessionId, sessions, onCreated);
  const { activeId, active, select, newChat } = session;

  const toggleSide = (column: Exclude<SideColumn, 'none'>) => setSide((s) => (s === column ? 'none' : column));
  useShortcuts({
    'mod+n': () => void newChat(),
    'mod+k': () => sidebar.current?.focusSearch(),
    'mod+shift+t': () => toggleSide('tree'),
    'mod+shift+b': () => toggleSide('panels'),
    'mod+shift+p': () => setPaletteOpen.current(true),
    'mod+,': () => setSettingsOpen((v) => !v),
    'mod+shift+l': () => setTheme((t) => (resolvedTheme === 'dark' || t === 'dark' ? 'light' : 'dark')),
    'mod+l': () => composer.current?.focus(),
  });

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
      <div className={`layout${side !== 'none' ? ' with-tree' : ''}`}>
        <SessionSidebar
          ref={sidebar}
          sessions={sessions}
          query={query}
          loading={loading}
          activeId={activeId}
          onQuery={setQuery}
          onSelect={select}
          onNew={() => void newChat()}
          onRename={session.rename}
          onDelete={session.remove}
        />
        <main className="main">
          <TopBar
            active={active}
            connected={connected}
            providerConfigured={boot.providerConfigured}
            side={side}
            settingsOpen={settingsOpen}
            resolvedTheme={resolvedTheme}
            onSetUpModel={() => {
              localStorage.removeItem(SKIP_SETUP_KEY);
              setSetupSkipped(false);
            }}
            onViewPrompt={() => setPromptOpen(true)}
            onOpenPalette={() => setPaletteOpen.current(true)}
            onToggleSide={toggleSide}
            onToggleTheme={() => setTheme(resolvedTheme === 'dark' ? 'light' : 'dark')}
            onToggleSettings={() => setSettingsOpen((v) => !v)}
          />
          <ChatView key={activeId ?? 'none'} session={active} canSend={boot.providerConfigured} composerRef={composer} onNewChat={() => void newChat()} />
          <StatusBar sessionId={activeId} />
          {settingsOpen && <SettingsView sessionId={activeId} onSetupProvider={() => setSetupOpen(true)} onClose={() => setSettingsOpen(false)} />}
        </main>
        {side === 'panels' ? (
          <PanelsView onClose={() => setSide('none')} />
        ) : (
          side === 'tree' && active && <TreeView key={active.id} sessionId={active.id} onClose={() => setSide('none')} />
        )}
        <ApprovalDialog />
        <SandboxNotice onOpenSettings={openSettings} />
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
