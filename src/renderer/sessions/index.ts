export { SessionSidebar, sessionTitle } from './SessionSidebar.tsx';
export type { SidebarHandle } from './SessionSidebar.tsx';
export { useSessions } from './use-sessions.ts';
export { TitlesSection } from './TitlesSection.tsx';
export { ConversationSearch } from './ConversationSearch.tsx';
export type { SidebarProject } from './session-groups.ts';
