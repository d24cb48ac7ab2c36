import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_EVENT_TOPIC } from '../../shared/plugins/index.ts';
import type { AllowanceContribution, CommandContribution, PluginContext } from '../../workers/sdk/index.ts';
import { BUDGET_FILE_NAME } from './budget-file.ts';
import { createBudgetPlugin } from './budget-plugin.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-budget-plugin-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The plugin against a context of its own: config from `config`, agent events delivered by `emit`. */
async function started(config: Record<string, unknown>, saveDelayMs: number) {
  const listeners: ((payload: unknown) => void)[] = [];
  const seen = { panels: 0, configReads: 0, panelDrawn: null as (() => void) | null };
  const ctx: PluginContext = {
    pluginId: 'budget',
    workspace: dir,
    settings: {},
    config: async (key) => config[key] as never,
    configAll: async () => (seen.configReads++, config),
    events: {
      on: (topic, listener) => {
        if (topic === AGENT_EVENT_TOPIC) listeners.push(listener);
        return { dispose: () => {} };
      },
      emit: () => {},
    },
    updateStatus: () => {},
    updatePanel: () => {
      seen.panels++;
      seen.panelDrawn?.();
    },
    updateWallet: () => {},
    setTools: async () => {},
    elicit: async () => ({ action: 'decline' }),
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  };
  const plugin = createBudgetPlugin({ saveDelayMs });
  expect(await plugin.initialize(ctx)).toBe(true);
  const declared = await plugin.capabilities();
  const allowance = declared.find((c): c is AllowanceContribution => 'kind' in c && c.kind === 'allowance')!;
  const command = declared.find((c): c is CommandContribution => 'kind' in c && c.kind === 'command')!;
  let n = 0;
  const spend = (usd: number) =>
    listeners.forEach((l) =>
      l({
        sessionId: 's1',
        runId: 'r1',
        type: 'message_end',
        entry: {
          id: `e${++n}`,
          parentId: null,
          timestamp: new Date().toISOString(),
          type: 'message',
          message: {
            role: 'assistant',
            content: [],
            stopReason: 'stop',
            provider: 'p',
            model: 'm',
            usage: { input: 10, output: 1, cacheRead: 0, cacheWrite: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: usd } },
          },
        },
      }),
    );
  return { plugin, allowance, command, spend, seen, listeners };
}

/** The day's spend in the file, or null while there is no file. */
const savedSpend = (): number | null => {
  const path = join(dir, BUDGET_FILE_NAME);
  if (!existsSync(path)) return null;
  const data = JSON.parse(readFileSync(path, 'utf8')) as { totals: Record<string, { usd: number }> };
  return Object.entries(data.totals).find(([bucket]) => bucket.startsWith('day:'))?.[1].usd ?? 0;
};

describe('the budget plugin saving spend', () => {
  it('counts spend from every reply at once but writes the file once for many, and shutdown writes what waits', async () => {
    const { plugin, allowance, spend } = await started({ dataDir: dir, budgets: [{ period: 'day', limit: 5 }] }, 60_000);
    for (let i = 0; i < 50; i++) spend(0.11);
    // Counted already: the check refuses the next call before anything is written.
    expect((await allowance.check({ providerId: 'p', modelId: 'm' })).allowed).toBe(false);
    expect(savedSpend()).toBeNull();
    await plugin.shutdown();
    expect(savedSpend()).toBeCloseTo(5.5, 5);
  });

  it('writes spend within its delay without a shutdown, one write for the events before it', async () => {
    const { plugin, spend } = await started({ dataDir: dir, budgets: [{ period: 'day', limit: 5 }] }, 20);
    spend(1);
    spend(2);
    expect(savedSpend()).toBeNull();
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (savedSpend() !== null) {
          clearInterval(timer);
          resolve();
        }
      }, 5);
    });
    expect(savedSpend()).toBeCloseTo(3, 5);
    await plugin.shutdown();
  });

  it('writes a limit the user sets at once', async () => {
    const { plugin, command } = await started({ dataDir: dir }, 60_000);
    await command.run(['set', 'day', '7']);
    expect(readFileSync(join(dir, BUDGET_FILE_NAME), 'utf8')).toContain('7');
    await plugin.shutdown();
  });
});

it('the replies of a run redraw the panel once for all of them, a moment later, reading the config once', async () => {
  const { plugin, spend, seen } = await started({ dataDir: dir, budgets: [{ period: 'day', limit: 5 }] }, 60_000);
  const before = { panels: seen.panels, configReads: seen.configReads };
  const drawn = new Promise<void>((resolve) => (seen.panelDrawn = resolve));
  for (let i = 0; i < 30; i++) spend(0.01);
  expect(seen.panels).toBe(before.panels);
  await drawn;
  expect(seen.panels).toBe(before.panels + 1);
  expect(seen.configReads).toBe(before.configReads + 1);
  await plugin.shutdown();
});

it('charges a compaction’s summary request like a reply: its usage on the compaction entry counts toward the budget', async () => {
  const { plugin, allowance, listeners } = await started({ dataDir: dir, budgets: [{ period: 'day', limit: 5 }] }, 60_000);
  expect((await allowance.check({ providerId: 'p', modelId: 'm' })).allowed).toBe(true);
  for (const l of listeners)
    l({
      sessionId: 's1',
      runId: '',
      type: 'entry_appended',
      entry: {
        id: 'c1',
        parentId: null,
        timestamp: new Date().toISOString(),
        type: 'compaction',
        summary: 'the summary',
        firstKeptEntryId: 'e1',
        tokensBefore: 90_000,
        provider: 'p',
        model: 'm',
        usage: { input: 90_000, output: 500, cacheRead: 0, cacheWrite: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 6 } },
      },
    });
  expect((await allowance.check({ providerId: 'p', modelId: 'm' })).allowed).toBe(false);
  await plugin.shutdown();
});
