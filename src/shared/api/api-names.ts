// The names of the contract's channels and events, with no schema library attached: the sandboxed preload
// builds `window.amber` from these lists alone (it cannot load modules). api-contract.ts is checked against
// them at compile time, so the lists and the schemas cannot drift apart.

export const CHANNEL_NAMES = [
  'app.bootstrap',
  'sessions.list',
  'sessions.get',
  'sessions.create',
  'sessions.open',
  'sessions.rename',
  'sessions.delete',
  'sessions.restore',
  'sessions.page',
  'sessions.tree',
  'sessions.siblings',
  'sessions.branch',
  'sessions.setWorkspace',
  'entries.label',
  'chat.send',
  'chat.regenerate',
  'chat.abort',
  'chat.steer',
  'chat.followUp',
  'chat.lastPrompt',
  'chat.models',
  'chat.setModel',
  'chat.getThinking',
  'chat.setThinking',
  'instructions.get',
  'instructions.set',
  'approvals.list',
  'approvals.answer',
  'providers.presets',
  'providers.test',
  'providers.save',
  'plugins.list',
  'plugins.setState',
  'plugins.setProcess',
  'plugins.getConfig',
  'plugins.setConfig',
  'plugins.rescan',
  'plugins.openFolder',
  'status.list',
  'panels.list',
  'panels.opened',
  'panels.action',
  'wallets.list',
  'wallets.refresh',
  'wallets.setThreshold',
  'allowances.list',
  'commands.list',
  'commands.complete',
  'commands.run',
  'policy.get',
  'policy.setMode',
  'policy.removeRule',
  'workspace.complete',
  'workspace.pick',
  'workspace.pending',
  'workspace.decline',
  'policy.confirmReadOnly',
  'mcp.list',
  'mcp.import',
  'mcp.setEnabled',
  'mcp.remove',
  'mcp.restart',
  'mcp.server',
  'mcp.save',
  'mcp.trust',
  'mcp.setTrust',
  'mcp.resources',
  'mcp.readResource',
  'policy.sandbox',
  'policy.setNetwork',
] as const;
export type ChannelName = (typeof CHANNEL_NAMES)[number];

export const EVENT_NAME_LIST = [
  'session.created',
  'session.updated',
  'session.deleted',
  'session.branched',
  'agent.emitted',
  'approval.requested',
  'approval.settled',
  'plugins.changed',
  'plugins.configChanged',
  'status.changed',
  'panels.changed',
  'wallets.changed',
  'allowances.changed',
  'commands.changed',
  'policy.changed',
  'workspace.requested',
  'workspace.settled',
  'mcp.changed',
] as const;
export type EventNameOf = (typeof EVENT_NAME_LIST)[number];

export function splitChannel(channel: ChannelName): [string, string] {
  const dot = channel.indexOf('.');
  return [channel.slice(0, dot), channel.slice(dot + 1)];
}

/** The IPC channel main sends an API event on (`event:session.created`); the preload listens on the same. */
export function eventChannel(event: EventNameOf): string {
  return `event:${event}`;
}
