import { AgentEvent } from '../../shared/agent/index.ts';
import { AGENT_EVENT_TOPIC } from '../../shared/plugins/index.ts';
import { isAssistant } from '../../shared/sessions/index.ts';
import type { AllowanceRequest } from '../../shared/plugins/index.ts';
import type { AllowanceVerdict, PluginCommandResult, DefinedPlugin, PluginContext } from '../../workers/sdk/index.ts';
import { definePlugin } from '../../workers/sdk/index.ts';
import { BUDGET_HELP, BUDGET_MAN, parseBudgetCommand } from './budget-command.ts';
import { type BudgetConfig, readBudgetConfig } from './budget-config.ts';
import { BudgetFile } from './budget-file.ts';
import { BudgetLedger, resolveBudgets } from './budget-ledger.ts';
import { bucketKey, describeReset, periodAdjective } from './budget-period.ts';
import { type Budget, budgetId, type BudgetStatus, budgetStatus, formatAmount, raisedLimit } from './budget-status.ts';
import { budgetPanel, budgetSegment, type BudgetViewInput } from './budget-views.ts';
import { findPricing, spendOfUsage } from './spend-of-usage.ts';

export const BUDGET_ALLOWANCE_ID = 'budget';

export interface BudgetPluginSeams {
  /** Epoch milliseconds. Periods follow this clock in local time. */
  now?: () => number;
  /**
   * How long spend counted from agent events may wait before it is written to the file (default
   * SPEND_SAVE_DELAY_MS): a run records spend at every reply, and one write covers them all. Limits the user
   * sets are written at once; shutdown writes what waits.
   */
  saveDelayMs?: number;
}

/** How long the panel and status segment may lag behind the agent's events (they are redrawn once for all of them). */
export const VIEW_REFRESH_MS = 100;

/** At most this much counted spend is lost when the plugin's process is killed without its shutdown. */
export const SPEND_SAVE_DELAY_MS = 1000;

/**
 * Spending budgets per session, day or month, in dollars or tokens. Spend is counted from the usage of each
 * assistant message the agent persists; the allowance check blocks a model call once a budget is used up
 * and warns from `warnAt`. Spend and the limits set here are saved in `<dataDir>/budget.json`.
 */
export function createBudgetPlugin(seams: BudgetPluginSeams = {}): DefinedPlugin {
  const now = seams.now ?? Date.now;
  let ctx: PluginContext | null = null;
  let ledger = new BudgetLedger();
  let file: BudgetFile | null = null;
  let activeSession: string | null = null;
  const notes: string[] = [];
  const warned = new Set<string>();
  let saveProblem: string | null = null;

  let lastConfig: BudgetConfig = readBudgetConfig({});
  const config = async (): Promise<BudgetConfig> => {
    const cfg = readBudgetConfig(ctx ? await ctx.configAll() : {});
    // Each problem is logged when it appears, not at every read.
    for (const p of cfg.problems) if (!lastConfig.problems.includes(p)) ctx?.log.warn(p);
    lastConfig = cfg;
    return cfg;
  };

  const saveDelayMs = seams.saveDelayMs ?? SPEND_SAVE_DELAY_MS;
  let saveTimer: ReturnType<typeof setTimeout> | null = null;
  const save = () => {
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = null;
    if (!file) return;
    try {
      file.save(ledger.toJSON());
      saveProblem = null;
    } catch (e) {
      saveProblem = `Spend could not be saved to ${file.path}: ${e instanceof Error ? e.message : String(e)}. It is kept in memory until the app closes.`;
      ctx?.log.error(saveProblem);
    }
  };

  /** Writes spend later, once for every event counted meanwhile (the timer does not keep the process alive). */
  const saveSoon = () => {
    if (!file || saveTimer) return;
    saveTimer = setTimeout(save, saveDelayMs);
    saveTimer.unref?.();
  };

  const statusesFor = (cfg: BudgetConfig, at: Date, sessionId: string | null): BudgetStatus[] =>
    resolveBudgets(cfg.budgets, ledger.limitOverrides()).map((b) => budgetStatus(b, ledger.spent(b, at, sessionId), cfg.warnAt));

  const viewInput = async (sessionId: string | null = activeSession): Promise<BudgetViewInput> => {
    const at = new Date(now());
    const cfg = await config();
    return { statuses: statusesFor(cfg, at, sessionId), now: at, sessionId, notes: [...notes, ...(saveProblem ? [saveProblem] : []), ...cfg.problems] };
  };

  /** Pushes the panel and the status segment. Must not throw: it runs after events and commands. */
  const refreshViews = async () => {
    const c = ctx;
    if (!c) return;
    try {
      const input = await viewInput();
      // Shut down meanwhile: nothing is shown any more.
      if (ctx !== c) return;
      c.updatePanel(budgetPanel(input));
      c.updateStatus(budgetSegment(input));
    } catch (e) {
      c.log.error(`The budget views could not be updated: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  /** Views refreshed for agent events: once for all the events of VIEW_REFRESH_MS (a run sends many). */
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  const refreshSoon = () => {
    if (refreshTimer) return;
    refreshTimer = setTimeout(() => {
      refreshTimer = null;
      void refreshViews();
    }, VIEW_REFRESH_MS);
    refreshTimer.unref?.();
  };

  /**
   * Counts spend synchronously, before any await: an event main sent before a check is then counted before
   * that check runs (both arrive in order on the one pipe). Prices come from the config read last.
   */
  const onAgentEvent = (payload: unknown) => {
    const type = typeof payload === 'object' && payload !== null ? (payload as { type?: unknown }).type : undefined;
    if (type === 'entry_appended') {
      // Of the entries a run appends, only a compaction is charged.
      if ((payload as { entry?: { type?: unknown } }).entry?.type !== 'compaction') return;
    } else if (type !== 'message_end' && type !== 'agent_start' && type !== 'turn_start') return;
    const parsed = AgentEvent.safeParse(payload);
    if (!parsed.success) return;
    const event = parsed.data;
    const sessionChanged = event.sessionId !== activeSession;
    activeSession = event.sessionId;
    let counted = false;
    // A reply, or a compaction whose summary request is charged like one (its usage and model are on the entry).
    const message =
      event.type === 'message_end' && event.entry.type === 'message' && isAssistant(event.entry.message)
        ? event.entry.message
        : event.type === 'entry_appended' && event.entry.type === 'compaction'
          ? event.entry
          : null;
    if (message && (event.type === 'message_end' || event.type === 'entry_appended')) {
      // Spend on a provider the budgets do not cover is not theirs to count.
      const covered = lastConfig.providers.length === 0 || (message.provider !== undefined && lastConfig.providers.includes(message.provider));
      if (message.usage && covered) {
        const spend = spendOfUsage(message.usage, findPricing(lastConfig.prices, message.provider, message.model));
        counted = ledger.record(spend, new Date(now()), event.sessionId, event.entry.id);
        if (counted) saveSoon();
      }
    }
    if (counted || sessionChanged) refreshSoon();
  };

  const check = async (request: AllowanceRequest): Promise<AllowanceVerdict> => {
    // The request may name its session; otherwise the session of the newest agent event is the one calling.
    const asked = (request as { sessionId?: unknown }).sessionId;
    const sessionId = typeof asked === 'string' ? asked : activeSession;
    const cfg = await config();
    if (cfg.providers.length > 0 && !cfg.providers.includes(request.providerId)) return { allowed: true };
    const statuses = statusesFor(cfg, new Date(now()), sessionId);
    const spent = Math.round(Math.max(0, ...statuses.map((s) => s.fraction)) * 1000) / 10;
    const blocked = statuses.find((s) => s.level === 'exhausted');
    if (blocked) {
      void refreshViews();
      return { allowed: false, reason: blocked.message ?? undefined, spent };
    }
    const warnings = statuses.filter((s) => s.level === 'warning');
    if (warnings.length) {
      // Logged once per budget and period, not on every call.
      for (const w of warnings) {
        const key = `${w.budget.id}@${bucketKey(w.budget.period, new Date(now()), sessionId) ?? ''}`;
        if (!warned.has(key)) ctx?.log.warn(w.message ?? '');
        warned.add(key);
      }
      return { allowed: true, reason: warnings.map((w) => w.message).join(' '), spent };
    }
    return statuses.length === 0 ? { allowed: true, spent, inactive: true } : { allowed: true, spent };
  };

  const budgetsNow = async (): Promise<{ cfg: BudgetConfig; budgets: Budget[] }> => {
    const cfg = await config();
    return { cfg, budgets: resolveBudgets(cfg.budgets, ledger.limitOverrides()) };
  };

  const runCommand = async (args: string[]): Promise<PluginCommandResult> => {
    const command = parseBudgetCommand(args);
    if ('error' in command) return { output: command.error, isError: true };
    const at = new Date(now());
    if (command.action === 'help') return { output: BUDGET_MAN, isError: false };
    if (command.action === 'show') {
      const input = await viewInput();
      if (input.statuses.length === 0)
        return { output: 'No budgets are set. Add one with /budget set day 5 or /budget set session 200k tokens.', isError: false };
      const lines = input.statuses.map(
        (s) =>
          `${capitalise(periodAdjective(s.budget.period))} budget: ${formatAmount(s.budget.unit, s.spent)} of ${formatAmount(s.budget.unit, s.budget.limit)} (${Math.floor(s.fraction * 100)}%), resets ${describeReset(s.budget.period, at)}.`,
      );
      return { output: lines.join('\n'), isError: false };
    }
    const { cfg, budgets } = await budgetsNow();
    if (command.action === 'set') {
      const id = budgetId(command.period, command.unit);
      ledger.setLimit(id, command.limit);
      save();
      await refreshViews();
      const budget: Budget = { id, period: command.period, unit: command.unit, limit: command.limit };
      const spent = ledger.spent(budget, at, activeSession);
      return {
        output: `The ${periodAdjective(command.period)} budget is now ${formatAmount(command.unit, command.limit)} (${formatAmount(command.unit, spent)} spent so far).`,
        isError: false,
      };
    }
    const targets = budgets.filter((b) => b.period === command.period && (command.unit === null || b.unit === command.unit));
    if (targets.length === 0)
      return { output: `There is no ${periodAdjective(command.period)} budget${command.unit ? ` in ${command.unit}` : ''}.`, isError: true };
    for (const b of targets) {
      if (command.action === 'reset') ledger.reset(b, at, activeSession);
      // A budget from the config is masked; one set here is simply forgotten.
      else ledger.setLimit(b.id, cfg.budgets.some((c) => c.id === b.id) ? null : undefined);
    }
    save();
    await refreshViews();
    const what = `The ${periodAdjective(command.period)} budget${targets.length > 1 ? 's' : ''}`;
    return {
      output:
        command.action === 'reset' ? `${what} count${targets.length > 1 ? '' : 's'} from zero again.` : `${what} ${targets.length > 1 ? 'are' : 'is'} removed.`,
      isError: false,
    };
  };

  const onPanelAction = async (actionId: string) => {
    const [verb, id] = actionId.split('.', 2);
    const { budgets } = await budgetsNow();
    const budget = budgets.find((b) => b.id === id);
    if (!budget) return;
    const at = new Date(now());
    if (verb === 'raise') ledger.setLimit(budget.id, raisedLimit(budget.limit, ledger.spent(budget, at, activeSession)));
    else if (verb === 'reset') ledger.reset(budget, at, activeSession);
    else return;
    save();
    await refreshViews();
  };

  return definePlugin({
    manifest: { id: 'budget', version: '1.0.0' },

    async initialize(context) {
      ctx = context;
      const cfg = await config();
      notes.length = 0;
      warned.clear();
      // A data folder the host gives its plugins is used when the SDK offers one; `dataDir` in config wins.
      const hostDir = (context as { dataDir?: unknown }).dataDir;
      const dataDir = cfg.dataDir ?? (typeof hostDir === 'string' && hostDir ? hostDir : undefined);
      if (dataDir) {
        file = new BudgetFile(dataDir);
        const loaded = file.load(now());
        ledger = new BudgetLedger(loaded.data);
        if (loaded.problem) {
          notes.push(loaded.problem);
          context.log.warn(loaded.problem);
        }
      } else {
        file = null;
        ledger = new BudgetLedger();
        notes.push('Spend is not saved: no data folder is set (dataDir), so it starts from zero when the app restarts.');
      }
      context.events.on(AGENT_EVENT_TOPIC, onAgentEvent, { types: ['agent_start', 'turn_start', 'message_end', 'entry_appended'] });
      return true;
    },

    async shutdown() {
      if (refreshTimer) clearTimeout(refreshTimer);
      refreshTimer = null;
      save();
      ctx = null;
    },

    async capabilities() {
      const input = await viewInput();
      const spent = Math.round(Math.max(0, ...input.statuses.map((s) => s.fraction)) * 1000) / 10;
      return [
        // One allowance checks every budget: budgets can be added with /budget at any time, and a
        // declaration cannot be added after start. It reports the fullest budget's use in percent.
        {
          kind: 'allowance',
          id: BUDGET_ALLOWANCE_ID,
          scope: '*',
          limit: 100,
          unit: '%',
          spent,
          ...(input.statuses.length === 0 ? { inactive: true } : {}),
          check,
        },
        { kind: 'statusSegment', ...budgetSegment(input) },
        { kind: 'panel', ...budgetPanel(input), onAction: onPanelAction },
        { kind: 'command', path: ['budget'], help: BUDGET_HELP, man: BUDGET_MAN, run: runCommand },
      ];
    },
  });
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
