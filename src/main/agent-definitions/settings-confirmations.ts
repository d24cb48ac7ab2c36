import type { SettingsService } from '../settings/index.ts';
import type { AgentConfirmations } from './agent-definitions.ts';

/** The workspace agent confirmations kept in the settings table (`agents.confirmed`), one record per workspace. */
export function settingsConfirmations(settings: SettingsService): AgentConfirmations {
  return {
    get: (workspaceRoot) => settings.get('agents.confirmed')[workspaceRoot] ?? {},
    set: (workspaceRoot, confirmed) => settings.set('agents.confirmed', { ...settings.get('agents.confirmed'), [workspaceRoot]: confirmed }),
  };
}
