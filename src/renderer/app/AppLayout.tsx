import { useCallback, useEffect, useRef, useState } from 'react';
import type { Bootstrap } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { TreeView } from '../branches/index.ts';
import { ApprovalDialog, ChatView, type ComposerHandle, ElicitationDialog, PromptViewer } from '../chat/index.ts';
import { EvalsView } from '../evals/index.ts';
import { CommandPalette, CommandsProvider, useCommands } from '../commands/index.ts';
import { openModelPicker } from '../models/index.ts';
import { PanelsView } from '../panels/index.ts';
import { ConversationSearch, SessionSidebar, type SidebarHandle, useSessions } from '../sessions/index.ts';
import { FirstRun, SandboxNotice, type SettingsPage, SettingsView } from '../settings/index.ts';
import { StatusBar } from '../status/index.ts';
import { applyTheme, loadTheme, type ThemeChoice, useToasts } from '../ui/index.ts';
import { SideDrawer } from './SideDrawer.tsx';
import { type SideColumn, TopBar } from './TopBar.tsx';
import { useMediaQuery } from './use-media-query.ts';
import { useActiveSession } from './use-active-session.ts';
import { useShortcuts } from './use-shortcuts.ts';
import { useScheduledRunToasts } from '../schedule/index.ts';
import { useProjects } from '../projects/index.ts';
import './layout.css';

const SKIP_SETUP_KEY = 'amber.setupSkipped';
const SIDEBAR_HIDDEN_KEY = 'amber.sidebarHidden';
/** Under this width Panels and the tree open over the chat instead of beside it. */
export const DRAWER_QUERY = '(max-width: 1100px)';
/** Under this width the sidebar folds away by itself and opens over the chat. */
export const NARROW_QUERY = '(max-width: 1000px)';

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
  const sideAsDrawer = useMediaQuery(DRAWER_QUERY);
  // A wide window keeps the sidebar as the user left it (Ctrl+B); a narrow one opens it over the chat.
  const narrow = useMediaQuery(NARROW_QUERY);
  const [sidebarHidden, setSidebarHidden] = useState(() => localStorage.getItem(SIDEBAR_HIDDEN_KEY) === '1');
  const [sidebarOverlay, setSidebarOverlay] = useState(false);
  const sidebarShown = narrow ? sidebarOverlay : !sidebarHidden;
  const toggleSidebar = useCallback(() => {
    if (narrow) return setSidebarOverlay((v) => !v);
    setSidebarHidden((hidden) => {
      localStorage.setItem(SIDEBAR_HIDDEN_KEY, hidden ? '0' : '1');
      return !hidden;
    });
  }, [narrow]);
  useEffect(() => {
    if (!narrow) setSidebarOverlay(false);
  }, [narrow]);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // The page Settings opens on when something asks for one (the sandbox notice: Advanced); else Models.
  const [settingsPage, setSettingsPage] = useState<SettingsPage | undefined>(undefined);
  const openSettings = useCallback((page?: SettingsPage) => {
    setSettingsPage(page);
    setSettingsOpen(true);
  }, []);
  const [promptOpen, setPromptOpen] = useState(false);
  const [evalsOpen, setEvalsOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
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
      // A dialog that opened meanwhile (a question, a server's form) keeps the focus.
      if (document.querySelector('[aria-modal="true"]') || composer.current?.focus() || ++frames > 180) return;
      requestAnimationFrame(tryFocus);
    };
    requestAnimationFrame(tryFocus);
  }, [setQuery]);
  const session = useActiveSession(booted.lastSessionId, sessions, onCreated);
  const { activeId, active, select: openSession, newChat: startChat } = session;
  // Picking a conversation or starting one folds the sidebar drawn over the chat.
  const select = useCallback(
    (id: string) => {
      setSidebarOverlay(false);
      openSession(id);
    },
    [openSession],
  );
  const newChat = useCallback(
    (projectId?: string) => {
      setSidebarOverlay(false);
      return startChat(projectId);
    },
    [startChat],
  );
  const projects = useProjects();

  // A scheduled run's conversation, from its toast or its row in Settings: Settings closes, the conversation opens.
  const openScheduledRun = useCallback(
    (id: string) => {
      setSettingsOpen(false);
      select(id);
    },
    [select],
  );
  const showScheduledTasks = useCallback(() => openSettings('schedule'), [openSettings]);
  useScheduledRunToasts(openScheduledRun, showScheduledTasks);

  const toggleSide = (column: Exclude<SideColumn, 'none'>) => setSide((s) => (s === column ? 'none' : column));
  // The window's shortcuts; the palette lists them as actions with their keys.
  const shortcuts: Record<string, () => void> = {
    'mod+n': () => void newChat(),
    'mod+k': () => setSearchOpen((open) => !open),
    'mod+b': toggleSidebar,
    'mod+shift+t': () => toggleSide('tree'),
    'mod+shift+b': () => toggleSide('panels'),
    'mod+shift+p': () => setPaletteOpen.current(true),
    'mod+,': () => setSettingsOpen((v) => !v),
    'mod+shift+l': () => setTheme((t) => (resolvedTheme === 'dark' || t === 'dark' ? 'light' : 'dark')),
    'mod+l': () => composer.current?.focus(),
    'mod+shift+m': openModelPicker,
    'mod+shift+e': () => setEvalsOpen((open) => !open),
  };
  useShortcuts(shortcuts);

  if ((!boot.providerConfigured && !setupSkipped) || setupOpen) {
    return (
      <FirstRun
        onDone={(model) => {
          setSetupOpen(false);
          setBoot({ ...boot, providerConfigured: true });
          // A first setup goes straight to a conversation, ready to type; a later one returns where the user was.
          if (setupOpen) toasts.push({ kind: 'success', title: 'Connection saved', message: `Amber will talk to ${model}.` });
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
      <div className={`layout${side !== 'none' && !sideAsDrawer ? ' with-tree' : ''}${narrow || sidebarHidden ? ' no-sidebar' : ''}`}>
        {sidebarShown && (
          <SideDrawer overlay={narrow} side="left" label="Conversations" onClose={() => setSidebarOverlay(false)}>
            <SessionSidebar
              ref={sidebar}
              sessions={sessions}
              query={query}
              loading={loading}
              activeId={activeId}
              onQuery={setQuery}
              onSelect={select}
              onNew={() => void newChat()}
              projects={projects}
              onNewInProject={(projectId) => void newChat(projectId)}
              onRename={session.rename}
              onDelete={session.remove}
            />
          </SideDrawer>
        )}
        <main className="main">
          <TopBar
            active={active}
            connected={connected}
            providerConfigured={boot.providerConfigured}
            side={side}
            sidebarShown={sidebarShown}
            settingsOpen={settingsOpen}
            resolvedTheme={resolvedTheme}
            onSetUpModel={() => {
              localStorage.removeItem(SKIP_SETUP_KEY);
              setSetupSkipped(false);
            }}
            onViewPrompt={() => setPromptOpen(true)}
            onOpenPalette={() => setPaletteOpen.current(true)}
            onToggleSide={toggleSide}
            onToggleSidebar={toggleSidebar}
            onToggleTheme={() => setTheme(resolvedTheme === 'dark' ? 'light' : 'dark')}
            onToggleSettings={() => setSettingsOpen((v) => !v)}
          />
          <ChatView key={activeId ?? 'none'} session={active} canSend={boot.providerConfigured} composerRef={composer} onNewChat={() => void newChat()} />
          <StatusBar sessionId={activeId} />
          {settingsOpen && (
            <SettingsView
              sessionId={activeId}
              theme={theme}
              onTheme={setTheme}
              {...(settingsPage ? { initialPage: settingsPage } : {})}
              onSetupProvider={() => setSetupOpen(true)}
              onClose={() => {
                setSettingsOpen(false);
                setSettingsPage(undefined);
              }}
              onOpenSession={openScheduledRun}
            />
          )}
        </main>
        {side === 'panels' ? (
          <SideDrawer overlay={sideAsDrawer} side="right" label="Panels" onClose={() => setSide('none')}>
            <PanelsView onClose={() => setSide('none')} />
          </SideDrawer>
        ) : (
          side === 'tree' &&
          active && (
            <SideDrawer overlay={sideAsDrawer} side="right" label="Conversation tree" onClose={() => setSide('none')}>
              <TreeView key={active.id} sessionId={active.id} onClose={() => setSide('none')} />
            </SideDrawer>
          )
        )}
        <ApprovalDialog />
        <ElicitationDialog openSessionId={activeId} />
        <SandboxNotice onOpenSettings={openSettings} />
        {promptOpen && active && <PromptViewer sessionId={active.id} onClose={() => setPromptOpen(false)} />}
        {evalsOpen && (
          <EvalsView
            onClose={() => setEvalsOpen(false)}
            onOpenSession={(id) => {
              setEvalsOpen(false);
              void select(id);
            }}
          />
        )}
        {searchOpen && <ConversationSearch activeId={activeId} projects={projects} onOpen={select} onClose={() => setSearchOpen(false)} />}
      </div>
      <CommandPalette shortcuts={shortcuts} />
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
