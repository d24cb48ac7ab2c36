/** The pages of Settings, in the order the navigation lists them; the first is where Settings opens (what people change most). */
export const SETTINGS_PAGES = [
  { id: 'models', title: 'Models' },
  { id: 'conversations', title: 'Conversations and tools' },
  { id: 'projects', title: 'Projects' },
  { id: 'policy', title: 'Policy' },
  { id: 'plugins', title: 'Plugins' },
  { id: 'mcp', title: 'MCP servers' },
  { id: 'schedule', title: 'Scheduled tasks' },
  { id: 'memory', title: 'Memory' },
  { id: 'appearance', title: 'Appearance' },
  { id: 'advanced', title: 'Advanced' },
] as const;

export type SettingsPage = (typeof SETTINGS_PAGES)[number]['id'];

/** The page an arrow key moves to from `current`: Up/Down step (wrapping), Home/End jump; null for any other key. */
export function settingsPageAfterKey(current: SettingsPage, key: string): SettingsPage | null {
  const i = SETTINGS_PAGES.findIndex((p) => p.id === current);
  const n = SETTINGS_PAGES.length;
  if (key === 'ArrowDown' || key === 'ArrowRight') return SETTINGS_PAGES[(i + 1) % n]!.id;
  if (key === 'ArrowUp' || key === 'ArrowLeft') return SETTINGS_PAGES[(i - 1 + n) % n]!.id;
  if (key === 'Home') return SETTINGS_PAGES[0].id;
  if (key === 'End') return SETTINGS_PAGES[n - 1]!.id;
  return null;
}
