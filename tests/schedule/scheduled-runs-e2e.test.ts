// Scheduled tasks on the real parts: the headless shell with its bundled plugins in their own processes, the
// OpenAI-compatible provider plugin streaming from a loopback server, the workspace tools under the policy. The
// scheduler's clock and timer are the test's (its seams): the test moves time and fires the one armed timer.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { SCHEDULED_RUN_ENTRY, type ScheduledRunEnded, type ScheduledTask } from '../../src/shared/schedule/index.ts';
import type { Entry } from '../../src/shared/sessions/index.ts';
import { type HeadlessUnderTest, openHeadless } from '../fixtures/headless-under-test.ts';
import { openAiStream } from '../fixtures/provider-server.ts';
import { readRequest } from '../subagents/subagent-rig.ts';

const MINUTE = 60_000;
let h: HeadlessUnderTest;
let now: number;
let timers: { ms: number; fire: () => void; cancelled: boolean }[];
let notified: ScheduledRunEnded[];

/** The one timer the scheduler has armed now. */
function armed() {
  const live = timers.filter((t) => !t.cancelled);
  expect(live).toHaveLength(1);
  return live[0]!;
}

/** Moves the clock to the armed timer's moment and fires it. */
function fireTimer() {
  const t = armed();
  t.cancelled = true;
  now += t.ms;
  t.fire();
}

const toolResults = (entries: Entry[]) =>
  entries.flatMap((e) => (e.type === 'message' && e.message.role === 'toolResult' ? [{ name: e.message.toolName, status: e.message.status }] : []));

beforeEach(async () => {
  now = Date.parse('2026-06-10T08:00:00Z');
  notified = [];
  timers = [];
  h = await openHeadless({
    prefix: 'amber-schedule-e2e-',
    before: (workspace) => writeFileSync(join(workspace, 'notes.txt'), 'ship the release on friday\n'),
    // The scheduler's clock and timer are the test's: it moves time and fires the one armed timer.
    core: (dir) => ({
      workspace: join(dir, 'workspace'),
      home: dir,
      scheduler: {
        clock: () => now,
        timer: (ms, fire) => {
          const t = { ms, fire, cancelled: false };
          timers.push(t);
          return () => {
            t.cancelled = true;
          };
        },
        notify: (ended) => notified.push(ended),
      },
    }),
  });
  // The model reads the notes, lists the folder and writes a report in one turn, then answers; "done" to the confirm turn.
  let call = 0;
  h.server.setScript((raw) => {
    const request = readRequest(raw);
    if (request.confirm) return openAiStream({ text: 'done' });
    if (request.results.length === 0)
      return openAiStream({
        toolCalls: [
          { id: `c${++call}_read`, name: 'read', arguments: { path: 'notes.txt' } },
          { id: `c${call}_ls`, name: 'ls', arguments: { path: '.' } },
          { id: `c${call}_write`, name: 'write', arguments: { path: 'report.txt', content: `report ${call}` } },
        ],
      });
    return openAiStream({ text: 'The release ships on Friday.' });
  });
});

afterEach(() => h.close());

test('a task fires on its schedule as a tagged conversation; tools off its list are denied without asking; missed runs are counted after a restart', async () => {
  const { shell: s, client: c, workspace } = h;
  await h.connect();

  const task = await c.call<ScheduledTask>('schedule.add', {
    name: 'Release notes',
    prompt: 'Read notes.txt and write report.txt.',
    folder: workspace,
    model: 'custom/loop-model',
    schedule: 'FREQ=MINUTELY;INTERVAL=30',
    tools: ['read', 'write'],
  });
  expect(armed().ms).toBe(30 * MINUTE);

  // The timer fires: a run starts at once as a new conversation, tagged with the task in its first entry.
  const ended = c.waitFor<ScheduledRunEnded>('schedule.runEnded');
  fireTimer();
  const first = await ended;
  expect(first).toMatchObject({ task: { id: task.id, name: 'Release notes' }, run: { state: 'done', error: null } });
  const sessionId = first.run.sessionId!;
  const summary = await c.call<{ title: string; cwd: string }>('sessions.get', { sessionId });
  expect(summary.title).toMatch(/^Release notes — \d{4}-\d\d-\d\d \d\d:\d\d$/);
  expect(summary.cwd).toBe(workspace);
  const entries = s.app.sessions.path(sessionId);
  expect(entries[0]).toMatchObject({ type: 'custom', customType: SCHEDULED_RUN_ENTRY, data: { taskId: task.id, name: 'Release notes', runId: first.run.id } });
  expect(entries[1]).toMatchObject({ type: 'model_change', provider: 'custom', modelId: 'loop-model' });

  // read and write are on the list and run; ls is not, and is denied without a question.
  expect(toolResults(entries)).toEqual([
    { name: 'read', status: 'ok' },
    { name: 'ls', status: 'denied' },
    { name: 'write', status: 'ok' },
  ]);
  expect(JSON.stringify(entries)).toContain('ls is not among the tools this run may use');
  expect(readFileSync(join(workspace, 'report.txt'), 'utf8')).toBe('report 1');
  expect(c.events.filter((e) => e.event === 'approval.requested')).toEqual([]);
  expect(await c.call('approvals.list')).toEqual([]);
  // The window heard of the run's end, and so did the desktop notification seam.
  expect(notified).toMatchObject([{ task: { name: 'Release notes' }, run: { state: 'done', sessionId } }]);

  // Thirty minutes on, the timer fires again: a second conversation. The list shows both runs, newest first.
  expect(armed().ms).toBe(30 * MINUTE);
  const again = c.waitFor<ScheduledRunEnded>('schedule.runEnded', undefined, c.events.length);
  fireTimer();
  const second = await again;
  expect(second.run.sessionId).not.toBe(sessionId);
  const listed = (await c.call<{ tasks: ScheduledTask[] }>('schedule.list')).tasks[0]!;
  expect(listed.runs.map((r) => [r.state, r.sessionId])).toEqual([
    ['done', second.run.sessionId],
    ['done', sessionId],
  ]);
  const tagged = (await c.call<{ sessions: { id: string; title: string }[] }>('sessions.list', {})).sessions.filter(
    (x) => s.app.sessions.path(x.id)[0]?.type === 'custom',
  );
  expect(tagged.map((x) => x.id).sort()).toEqual([sessionId, second.run.sessionId].sort());
  expect(readFileSync(join(workspace, 'report.txt'), 'utf8')).toBe('report 2');

  // Amber closes; two hours pass (the due times at +30, +60, +90, +120 minutes go by); it starts again on the same data.
  const requests = h.server.requests.length;
  await h.restart(() => {
    now += 120 * MINUTE;
    timers = [];
  });
  const after = (await h.client.call<{ tasks: ScheduledTask[] }>('schedule.list')).tasks[0]!;
  expect(after.runs[0]).toMatchObject({ state: 'missed', missed: 4, sessionId: null, error: 'Missed 4 runs while Amber was closed.' });
  expect(after.runs).toHaveLength(3);
  expect(h.server.requests.length).toBe(requests);
  expect(after.nextRunAt).toBeGreaterThan(now);
  expect(armed().ms).toBe(after.nextRunAt! - now);
});
