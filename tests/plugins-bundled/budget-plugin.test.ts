import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_EVENT_TOPIC, assistantEnd, costing, turn } from './agent-events.ts';
import { type BundledRuntime, startBundled, tempDir } from './bundled-runtime.ts';

const request = { providerId: 'openrouter', modelId: 'test-model' };

let dir: ReturnType<typeof tempDir>;
let runtime: BundledRuntime | null = null;

beforeEach(() => {
  dir = tempDir('amber-budget-');
});

afterEach(async () => {
  await runtime?.close();
  runtime = null;
  dir.remove();
});

async function start(config: Record<string, unknown>): Promise<BundledRuntime> {
  runtime = await startBundled(['budget'], { dataDir: dir.path, config: new Map([['budget', { dataDir: join(dir.path, 'budget-data'), ...config }]]) });
  return runtime;
}

const segmentText = (r: BundledRuntime) => r.service.registries.statusSegments.get('budget')?.value.text;
const verdict = (r: BundledRuntime, req: Record<string, unknown> = request) =>
  r.service.registries.allowances.get('budget')!.value.check(req as typeof request);

describe('the budget plugin in its own process', () => {
  it('contributes an allowance, a status segment, a panel and /budget', async () => {
    const r = await start({ budgets: [{ period: 'day', limit: 5 }] });
    expect(r.service.get('budget').contributions.map((c) => `${c.kind}:${c.key}:${c.status}`)).toEqual([
      'allowance:budget:installed',
      'statusSegment:budget:installed',
      'panel:budget:installed',
      'command:budget:installed',
    ]);
    const panel = r.service.registries.panels.list().find((p) => p.id === 'budget')!;
    expect(panel.sections[0]!.rows).toEqual(
      expect.arrayContaining([
        { type: 'progress', label: '$0.00 of $5.00 (0%)', value: 0, max: 5 },
        { type: 'keyValue', key: 'Scope', value: 'day' },
        { type: 'keyValue', key: 'Unit', value: 'money (USD)' },
      ]),
    );
    expect(panel.actions.map((a) => a.id)).toEqual(['raise.day-usd', 'reset.day-usd']);
  });

  it('with providers named, counts and stops only their calls, and lets other providers through', async () => {
    const r = await start({ limits: { dayUsd: 5 }, providers: ['openrouter'] });
    r.service.events.emit(AGENT_EVENT_TOPIC, assistantEnd('s1', costing(9), { provider: 'loopback', model: 'm' }));
    r.service.events.emit(AGENT_EVENT_TOPIC, assistantEnd('s1', costing(4.2)));
    await r.until(() => segmentText(r)?.startsWith('⚠ '), 'the warning in the status bar');
    // Only OpenRouter's $4.20 counts: the loopback call's $9 would have used the budget up.
    expect(await verdict(r)).toEqual({ allowed: true, reason: 'The daily budget is 84% used ($4.20 of $5.00).', spent: 84 });
    r.service.events.emit(AGENT_EVENT_TOPIC, assistantEnd('s1', costing(1)));
    await r.until(() => segmentText(r)?.startsWith('⛔ '), 'the block in the status bar');
    expect((await verdict(r)).allowed).toBe(false);
    expect(await verdict(r, { providerId: 'loopback', modelId: 'm' })).toEqual({ allowed: true });
  });

  it('with no budget set its allowance says it limits nothing, until a budget is set', async () => {
    const r = await start({});
    expect(r.service.registries.allowances.get('budget')!.value.inactive).toBe(true);
    expect(await verdict(r)).toEqual({ allowed: true, spent: 0, inactive: true });
    expect((await r.service.registries.commands.run(['budget'], ['set', 'day', '5'])).isError).toBe(false);
    expect(await r.service.registries.allowances.check(request)).toEqual({ allowed: true });
    expect(r.service.registries.allowances.get('budget')!.value.inactive).toBeUndefined();
  });

  it('is not asked again while it limits nothing, until its plugin is called for something else', async () => {
    const r = await start({});
    expect(await verdict(r)).toEqual({ allowed: true, spent: 0, inactive: true });
    // A budget appears in the config without a restart (the app restarts a plugin whose config it changes):
    // the answer main holds stands, so the plugin was not asked.
    r.config.set('budget', { ...r.config.get('budget'), budgets: [{ period: 'day', limit: 5 }] });
    expect(await verdict(r)).toEqual({ allowed: true, spent: 0, inactive: true });
    // Any other call into the plugin ends the hold: the next check asks it.
    expect((await r.service.registries.commands.run(['budget'], ['show'])).isError).toBe(false);
    expect(await verdict(r)).toEqual({ allowed: true, spent: 0 });
  });

  it('warns at 80%, blocks at 100% with which budget and how to raise it, and lets calls through once raised', async () => {
    const r = await start({ budgets: [{ period: 'day', limit: 5 }] });
    expect(await r.service.registries.allowances.check(request)).toEqual({ allowed: true });

    r.service.events.emit(AGENT_EVENT_TOPIC, assistantEnd('s1', costing(4.2)));
    await r.until(() => segmentText(r)?.startsWith('⚠ '), 'the warning in the status bar');
    expect(await verdict(r)).toEqual({ allowed: true, reason: 'The daily budget is 84% used ($4.20 of $5.00).', spent: 84 });

    r.service.events.emit(AGENT_EVENT_TOPIC, assistantEnd('s1', costing(0.82)));
    const blocked = await r.service.registries.allowances.check(request);
    expect(blocked).toEqual({
      allowed: false,
      allowanceId: 'budget',
      reason: 'The daily budget of $5.00 is used up ($5.02 spent). Raise it in the Budget panel or with /budget set day 10.',
    });
    await r.until(() => segmentText(r)?.startsWith('⛔ '), 'the block in the status bar');

    const set = await r.service.registries.commands.run(['budget'], ['set', 'day', '10']);
    expect(set).toEqual({ output: 'The daily budget is now $10.00 ($5.02 spent so far).', isError: false });
    expect(await r.service.registries.allowances.check(request)).toEqual({ allowed: true });
  });

  it('counts the same persisted message once, even when its event arrives twice', async () => {
    const r = await start({ budgets: [{ period: 'day', limit: 1 }] });
    const event = assistantEnd('s1', costing(0.6));
    r.service.events.emit(AGENT_EVENT_TOPIC, event);
    r.service.events.emit(AGENT_EVENT_TOPIC, event);
    expect(await verdict(r)).toMatchObject({ allowed: true, spent: 60 });
  });

  it('prices usage with the model pricing in its config when the provider reported no cost', async () => {
    const r = await start({ budgets: [{ period: 'month', limit: 1 }], prices: { 'openrouter/test-model': { input: 2, output: 10 } } });
    // 100k in × $2/M + 20k out × $10/M = $0.40
    r.service.events.emit(AGENT_EVENT_TOPIC, assistantEnd('s1', { input: 100_000, output: 20_000, cacheRead: 0, cacheWrite: 0 }));
    expect(await verdict(r)).toMatchObject({ allowed: true, spent: 40 });
  });

  it('keeps token budgets per session: another session starts from zero', async () => {
    const r = await start({ budgets: [{ period: 'session', unit: 'tokens', limit: 1000 }] });
    r.service.events.emit(AGENT_EVENT_TOPIC, assistantEnd('s1', costing(0, { input: 900, output: 150 })));
    const blocked = await verdict(r);
    expect(blocked.allowed).toBe(false);
    expect(blocked.reason).toBe(
      'The session budget of 1,000 tokens is used up (1,050 tokens spent). Raise it in the Budget panel or with /budget set session 2000 tokens.',
    );
    // The request names its session; otherwise the session of the newest agent event is the one asking.
    expect(await verdict(r, { ...request, sessionId: 's2' })).toMatchObject({ allowed: true });
    r.service.events.emit(AGENT_EVENT_TOPIC, turn('s2', 'turn_start'));
    expect(await verdict(r)).toMatchObject({ allowed: true, spent: 0 });
  });

  it('the panel raises a limit and resets a period', async () => {
    const r = await start({ budgets: [{ period: 'day', limit: 1 }] });
    r.service.events.emit(AGENT_EVENT_TOPIC, assistantEnd('s1', costing(1.2)));
    expect((await verdict(r)).allowed).toBe(false);

    await r.service.registries.panels.action('budget', 'raise.day-usd');
    expect(await verdict(r)).toMatchObject({ allowed: true, spent: 60 });
    const panel = await r.until(
      () => r.service.registries.panels.list().find((p) => p.id === 'budget' && p.sections[0]?.rows[0]?.type === 'progress' && p.sections[0].rows[0].max === 2),
      'the raised limit in the panel',
    );
    expect(panel.actions[0]).toEqual({ id: 'raise.day-usd', label: 'Raise the daily money limit to $4.00' });

    await r.service.registries.panels.action('budget', 'reset.day-usd');
    expect(await verdict(r)).toEqual({ allowed: true, spent: 0 });
  });

  it('spend and limits survive a restart of the runtime on the same data dir', async () => {
    let r = await start({ budgets: [{ period: 'day', limit: 5 }] });
    r.service.events.emit(AGENT_EVENT_TOPIC, assistantEnd('s1', costing(5.5)));
    expect((await verdict(r)).allowed).toBe(false);
    await r.close();
    runtime = null;
    expect(existsSync(join(dir.path, 'budget-data', 'budget.json'))).toBe(true);

    r = await start({ budgets: [{ period: 'day', limit: 5 }] });
    const again = await r.service.registries.allowances.check(request);
    expect(again).toMatchObject({ allowed: false, reason: expect.stringContaining('($5.50 spent)') });
    expect((await r.service.registries.commands.run(['budget'], ['set', 'day', '20'])).isError).toBe(false);
    await r.close();
    runtime = null;

    r = await start({ budgets: [{ period: 'day', limit: 5 }] });
    expect(await verdict(r)).toEqual({ allowed: true, spent: 27.5 });
    const shown = await r.service.registries.commands.run(['budget'], []);
    expect(shown.output).toContain('Daily budget: $5.50 of $20.00 (27%), resets at midnight');
  });

  it('says what to type when /budget is misused or a setting is wrong, without failing the plugin', async () => {
    const r = await start({ budgets: [{ period: 'week', limit: 1 }] });
    const notes = r.service.registries.panels.get('budget')!.value.view.sections.find((s) => s.title === 'Notes')!;
    expect(notes.rows).toContainEqual({ type: 'text', text: expect.stringMatching(/^The budget setting 'budgets\.0\.period' was ignored/) });
    expect(await r.service.registries.commands.run(['budget'], ['set', 'week', '3'])).toEqual({
      output: expect.stringContaining('session, day or month'),
      isError: true,
    });
    expect(await r.service.registries.commands.run(['budget'], ['reset', 'day'])).toEqual({ output: 'There is no daily budget.', isError: true });
    expect(r.service.get('budget').state).toBe('active');
  });
});
