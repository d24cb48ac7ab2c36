import type { SettingsService } from '../settings/index.ts';
import type { AgentConfirmations } from './agent-definitions.ts';

/**
 * Workspace confirmations kept in the settings table, one record per workspace: the agents' (`agents.confirmed`)
 * or, with the same shape, the skills' (`skills.confirmed`).
 */
export function settingsConfirmations(settings: SettingsService, key: 'agents.confirmed' | 'skills.confirmed' = 'agents.confirmed'): AgentConfirmations {
  return {
    get: (workspaceRoot) => settings.get(key)[workspaceRoot] ?? {},
    set: (workspaceRoot, confirmed) => settings.set(key, { ...settings.get(key), [workspaceRoot]: confirmed }),
  };
}
