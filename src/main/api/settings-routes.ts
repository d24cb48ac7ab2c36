import type { EventName, EventPayload } from '../../shared/api/index.ts';
import type { AllowanceView, PanelView, PluginListing, PluginView, PolicyView, WalletListing, WalletView } from '../../shared/api/index.ts';
import { type Disposable, DisposableStore } from '../../shared/disposable.ts';
import type { App } from '../app.ts';
import { type AppCommandContext, type CommandTree, createAppCommands } from '../commands/index.ts';
import { userReadOnlyTools } from '../agent-bridge/index.ts';
import { AmberError, errorMessage } from '../errors.ts';
import type { PluginInfo } from '../plugins/index.ts';
import type { Handlers } from './api-router.ts';
import { StatusService } from './status-service.ts';

/** The channels this module serves: settings, panels, status bar and commands. */
export type SettingsChannel =
  | 'plugins.list'
  | 'plugins.setState'
  | 'plugins.getConfig'
  | 'plugins.setConfig'
  | 'plugins.rescan'
  | 'plugins.openFolder'
  | 'status.list'
  | 'panels.list'
  | 'panels.action'
  | 'wallets.list'
  | 'wallets.refresh'
  | 'wallets.setThreshold'
  | 'allowances.list'
  | 'commands.list'
  | 'commands.complete'
  | 'commands.run'
  | 'policy.get'
  | 'policy.setMode'
  | 'policy.removeRule'
  | 'policy.confirmReadOnly';

export interface SettingsRoutesOptions {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** Opens a folder with the system's file manager (the desktop shell); absent: the folder is only named. */
  openPath?: (path: string) => Promise<boolean>;
  clock?: () => number;
}

export interface SettingsRoutes extends Disposable {
  readonly handlers: Pick<Handlers, SettingsChannel>;
  /** The command tree the command channels serve, for routes that add commands of their own. */
  readonly commands: CommandTree;
}

const WALLET_THRESHOLD_KEY = 'ui.walletThreshold';
const MONEY_UNITS = new Set(['usd', 'eur', 'gbp', 'cny', 'jpy', '$', '€', '£', 'money', 'dollars', 'credits']);

export function pluginView(info: PluginInfo, hasSettings = false): PluginView {
  return {
    id: info.id,
    name: info.name,
    description: info.description,
    category: info.category,
    version: info.version,
    source: info.source,
    state: info.state,
    reason: info.reason,
    enabled: info.enabled,
    pid: info.pid,
    contributions: info.contributions.map((c) => ({ kind: c.kind, key: c.key, status: c.status, ...(c.reason !== undefined ? { reason: c.reason } : {}) })),
    needsConfirmation: info.needsConfirmation,
    declares: [...info.declares],
    recentCrashes: info.recentCrashes,
    hasSettings,
  };
}

/**
 * The settings, panels, status bar and command channels, over the plugin runtime's registries, the agent's
 * policy and the command tree. Registry changes become events, so every window redraws without asking.
 */
export function createSettingsRoutes(app: App, options: SettingsRoutesOptions): SettingsRoutes {
  const { plugins, sessions } = app;
  const registries = plugins.registries;
  const view = (info: PluginInfo): PluginView => pluginView(info, plugins.configuration(info.id) !== null);
  const isBundled = (id: string): boolean => plugins.list().some((p) => p.id === id && p.source === 'bundled');
  const emit = options.emit;
  const clock = options.clock ?? Date.now;
  const subscriptions = new DisposableStore();
  const status = subscriptions.add(new StatusService(app, { onChange: (bar) => emit('status.changed', bar) }));
  const commands = subscriptions.add(
    createAppCommands(app, {
      emit,
      compact: async (sessionId) => {
        const outcome = await app.agent.compact(sessionId, { model: app.defaultModel() ?? undefined });
        if (!outcome.ok) throw new AmberError('conflict', outcome.reason);
        emit('session.branched', { sessionId, leafId: outcome.entry.id });
        return `Summarised the older messages (about ${outcome.entry.tokensBefore.toLocaleString('en')} tokens before).`;
      },
    }),
  );

  // Wallets: when each was last refreshed, and the last refresh's failure, as this run saw them.
  const refreshed = new Map<string, { at: number | null; error: string | null; balance: number; currency: string }>();

  const listing = (): PluginListing => ({ plugins: plugins.list().map(view), folder: plugins.userFolder, problems: plugins.problems.map((p) => ({ ...p })) });
  const panels = (): PanelView[] => registries.panels.list().map((p) => ({ id: p.id, title: p.title, sections: p.sections, actions: p.actions, pluginId: p.pluginId }));
  const threshold = (): number | null => {
    const raw = sessions.getSetting(WALLET_THRESHOLD_KEY);
    const value = raw === null ? null : Number(raw);
    return value !== null && Number.isFinite(value) ? value : null;
  };
  const walletView = (w: { id: string; provider: string; pluginId: string; balance: number; currency: string; refreshedAt?: number; error?: string }): WalletView => {
    // The plugin's own word on when it read the balance wins (it also reads on tick); else what this run saw.
    const seen = refreshed.get(w.id);
    return { id: w.id, provider: w.provider, pluginId: w.pluginId, balance: w.balance, currency: w.currency, refreshedAt: w.refreshedAt ?? seen?.at ?? null, error: w.error ?? seen?.error ?? null };
  };
  const wallets = (): WalletListing => ({ wallets: registries.wallets.list().map(walletView), threshold: threshold() });
  const allowances = (): AllowanceView[] =>
    // An allowance that limits nothing is not listed: a bar at 0% of nothing would claim a limit.
    registries.allowances.list().filter((a) => !a.inactive).map((a) => {
      const unit = a.unit.toLowerCase();
      return {
        id: a.id,
        pluginId: a.pluginId,
        spent: a.spent,
        limit: a.limit,
        unit: a.unit,
        measure: MONEY_UNITS.has(unit) ? ('money' as const) : unit === 'tokens' || unit === 'token' ? ('tokens' as const) : ('other' as const),
        scope: a.scope,
        period: a.period ?? null,
        resetsAt: a.resetsAt ?? null,
      };
    });
  const policyView = (sessionId: string | null): PolicyView => {
    const policy = app.agent.policy;
    if (!policy) throw new AmberError('unavailable', 'This build decides tool calls with its own gate; there is no policy to show.');
    const claims = userReadOnlyTools(registries.tools, isBundled);
    const readOnlyClaims = plugins
      .list()
      .filter((p) => p.source === 'user' && (claims.has(p.id) || policy.readOnlyConfirmed(p.id)))
      .map((p) => ({ pluginId: p.id, name: p.name, tools: claims.get(p.id) ?? [], confirmed: policy.readOnlyConfirmed(p.id) }));
    return { sessionId, mode: sessionId ? policy.mode(sessionId) : 'write', rules: policy.rules(), readOnlyClaims };
  };

  subscriptions.add(plugins.onDidChange((info) => emit('plugins.changed', view(info))));
  subscriptions.add(app.pluginConfig.onDidChange((id) => emit('plugins.configChanged', { id })));
  subscriptions.add(registries.panels.onDidChange(() => emit('panels.changed', { panels: panels() })));
  subscriptions.add(
    registries.wallets.onDidChange(() => {
      // A balance that changed was just refreshed (by a panel, a tick or a refresh call).
      for (const w of registries.wallets.list()) {
        const seen = refreshed.get(w.id);
        if (!seen || seen.balance !== w.balance || seen.currency !== w.currency) refreshed.set(w.id, { at: clock(), error: null, balance: w.balance, currency: w.currency });
      }
      emit('wallets.changed', wallets());
    }),
  );
  subscriptions.add(registries.allowances.onDidChange(() => emit('allowances.changed', { allowances: allowances() })));
  subscriptions.add(commands.tree.onDidChange(() => emit('commands.changed', {})));
  // Feeds (plugins, models) read live: a plugin coming or going changes what they offer.
  subscriptions.add(plugins.onDidChange(() => emit('commands.changed', {})));
  subscriptions.add(registries.providers.onDidChange(() => emit('commands.changed', {})));

  const handlers: Pick<Handlers, SettingsChannel> = {
    'plugins.list': () => listing(),
    'plugins.setState': async ({ id, enabled, confirm }) => view(await plugins.setState(id, enabled, { confirm: confirm === true })),
    'plugins.getConfig': ({ id }) => app.pluginConfig.get(plugins.get(id).id),
    'plugins.setConfig': ({ id, values }) => app.pluginConfig.set(plugins.get(id).id, values),
    'plugins.rescan': async () => {
      await plugins.rescan();
      return listing();
    },
    'plugins.openFolder': async () => {
      const folder = plugins.userFolder;
      if (!options.openPath) return { folder, opened: false };
      let opened = false;
      try {
        opened = await options.openPath(folder);
      } catch {
        opened = false;
      }
      return { folder, opened };
    },
    'status.list': ({ sessionId }) => status.list(sessionId ?? null),
    'panels.list': () => panels(),
    'panels.action': async ({ panelId, actionId }) => {
      await registries.panels.action(panelId, actionId);
      return { ok: true as const };
    },
    'wallets.list': () => wallets(),
    'wallets.refresh': async ({ id }) => {
      const held = registries.wallets.list().find((w) => w.id === id);
      if (!held) throw new AmberError('not_found', `There is no wallet '${id}'; its plugin may have been switched off.`);
      try {
        const fresh = await registries.wallets.refresh(id);
        refreshed.set(id, { at: clock(), error: null, balance: fresh.balance, currency: fresh.currency });
        emit('wallets.changed', wallets());
        return walletView(fresh);
      } catch (e) {
        refreshed.set(id, { at: refreshed.get(id)?.at ?? null, error: errorMessage(e), balance: held.balance, currency: held.currency });
        emit('wallets.changed', wallets());
        return walletView(held);
      }
    },
    'wallets.setThreshold': ({ threshold: value }) => {
      sessions.setSetting(WALLET_THRESHOLD_KEY, value === null ? null : String(value));
      const next = wallets();
      emit('wallets.changed', next);
      return next;
    },
    'allowances.list': () => allowances(),
    'commands.list': () => commands.tree.list(),
    'commands.complete': ({ input }) => commands.tree.complete(input),
    'commands.run': async ({ input, sessionId }) => {
      let openSessionId: string | null = null;
      const context: AppCommandContext = { sessionId: sessionId ?? null, openSession: (id) => (openSessionId = id) };
      const result = await commands.tree.run(input, context);
      return { result, openSessionId };
    },
    'policy.get': ({ sessionId }) => policyView(sessionId ?? null),
    'policy.setMode': ({ sessionId, mode }) => {
      sessions.get(sessionId);
      const policy = app.agent.policy;
      if (!policy) throw new AmberError('unavailable', 'This build decides tool calls with its own gate; the policy cannot be changed here.');
      policy.setMode(sessionId, mode);
      emit('policy.changed', { sessionId });
      return policyView(sessionId);
    },
    'policy.removeRule': ({ index, rule, sessionId }) => {
      const policy = app.agent.policy;
      if (!policy) throw new AmberError('unavailable', 'This build decides tool calls with its own gate; there are no stored rules.');
      const rules = policy.rules();
      const at = rules[index];
      if (!at || at.effect !== rule.effect || at.tool !== rule.tool || at.folder !== rule.folder) {
        throw new AmberError('conflict', 'The rules changed meanwhile (another window?); look at the list again and retry.');
      }
      policy.setRules(rules.filter((_, i) => i !== index));
      emit('policy.changed', { sessionId: null });
      return policyView(sessionId ?? null);
    },
    'policy.confirmReadOnly': ({ pluginId, confirmed, sessionId }) => {
      const policy = app.agent.policy;
      if (!policy) throw new AmberError('unavailable', 'This build decides tool calls with its own gate; there is nothing to confirm.');
      const plugin = plugins.list().find((p) => p.id === pluginId);
      if (!plugin || plugin.source !== 'user') throw new AmberError('not_found', `There is no user plugin '${pluginId}'; bundled plugins need no confirmation.`);
      policy.setReadOnlyConfirmed(pluginId, confirmed);
      emit('policy.changed', { sessionId: null });
      return policyView(sessionId ?? null);
    },
  };

  return { handlers, commands: commands.tree, dispose: () => subscriptions.dispose() };
}
