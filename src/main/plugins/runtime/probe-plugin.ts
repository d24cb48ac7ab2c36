import { ProviderProbeRequest, ProviderProbeResult } from '../../../shared/plugins/index.ts';
import { redactSecret } from '../../../shared/providers/index.ts';
import { AmberError, errorMessage } from '../../errors.ts';
import { describeIssue } from './describe-issue.ts';
import type { PluginSupervisor, SupervisorContext } from './plugin-supervisor.ts';

/**
 * A provider plugin's connection test (PluginService.probe): waits briefly for a plugin still starting, never
 * starts one that is off, and checks and redacts what it answers.
 */
export async function probePlugin(
  sup: PluginSupervisor,
  request: ProviderProbeRequest,
  options: { timeoutMs?: number; startWaitMs?: number },
  context: Pick<SupervisorContext, 'timeouts' | 'log'>,
): Promise<ProviderProbeResult> {
  const rec = sup.rec;
  const checked = ProviderProbeRequest.parse(request);
  const timeoutMs = options.timeoutMs ?? context.timeouts.callMs;
  const name = rec.descriptor.manifest.name;
  // On but not settled yet (the app is starting, or it is being switched on): wait for that, briefly.
  // Starting can take longer than the test itself on a loaded machine: `startWaitMs` is its own budget.
  if (rec.enabled && (rec.state === 'activating' || rec.state === 'registered')) await settledWithin(rec.queue, options.startWaitMs ?? timeoutMs);
  if (rec.enabled && rec.state === 'idle') await settledWithin(sup.started(), options.startWaitMs ?? timeoutMs);
  const conn = rec.conn;
  if (!rec.enabled || rec.state === 'deactivated' || rec.state === 'registered') {
    throw new AmberError('unavailable', `Turn the ${name} plugin on in Settings to test a connection.`);
  }
  if (rec.state !== 'active' || !conn) {
    throw new AmberError(
      'unavailable',
      `The ${name} plugin is not running${rec.reason ? ` (${rec.reason.replace(/\.$/, '')})` : ''}, so the connection cannot be tested. Switch it off and on in Settings, then test again.`,
    );
  }
  let raw: unknown;
  try {
    // The plugin gives up at timeoutMs and answers; the margin is for the pipe, so a hung plugin still ends it.
    raw = await conn.call('$probe', [checked, timeoutMs], timeoutMs + 2000);
  } catch (e) {
    throw new AmberError('unavailable', redactSecret(`The ${name} plugin could not test the connection: ${errorMessage(e)}`, checked.apiKey));
  }
  const parsed = ProviderProbeResult.safeParse(raw);
  if (!parsed.success) {
    context.log(rec, 'warn', redactSecret(`Its connection test answer was refused: ${describeIssue(parsed.error)}`, checked.apiKey));
    throw new AmberError(
      'unavailable',
      `The ${name} plugin answered the connection test with something Amber cannot read, so the test says nothing; the plugin's log has the reason.`,
    );
  }
  const { ok, models, message } = parsed.data;
  return { ok, models: models.map((m) => redactSecret(m, checked.apiKey)), message: redactSecret(message, checked.apiKey) };
}

/** Resolves when `promise` settles or `ms` have passed, whichever comes first; never rejects. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    promise.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((r) => (timer = setTimeout(r, ms))),
  ]);
  clearTimeout(timer);
}
