// The map from owner events to window events over stand-in owners: which owners it listens to, and when.
// The events themselves, through a whole core, are tested in tests/api/window-events.test.ts.
import { expect, test } from 'vitest';
import type { StatusBarView } from '../../shared/api/index.ts';
import { Emitter } from '../../shared/emitter.ts';
import type { SessionSummary } from '../../shared/sessions/index.ts';
import { type CoreEvent, type WindowEventSources, windowEvents } from './window-events.ts';

/** Any owner, any event: every property is itself, and subscribing to it gives a Disposable. */
const anyOwner: unknown = new Proxy(() => ({ dispose() {} }), { get: (_target, key) => (key === 'then' ? undefined : anyOwner) });

function sources() {
  const bars = new Emitter<StatusBarView>();
  const summaries = new Emitter<SessionSummary>();
  const sessions = new Proxy({}, { get: (_target, key) => (key === 'onDidChangeSummary' ? summaries.event : anyOwner) });
  const status = { onDidChange: bars.event };
  const app = new Proxy({}, { get: (_target, key) => (key === 'status' ? status : key === 'sessions' ? sessions : anyOwner) }) as WindowEventSources;
  return { app, bars, summaries };
}

test('the status bar and the summaries are listened to only while some window listens, so nothing builds them for nobody', () => {
  const { app, bars, summaries } = sources();
  const events = windowEvents(app);
  expect([bars.listenerCount, summaries.listenerCount]).toEqual([0, 0]);

  const first: CoreEvent[] = [];
  const second: CoreEvent[] = [];
  const a = events.event((e) => first.push(e));
  const b = events.event((e) => second.push(e));
  expect([bars.listenerCount, summaries.listenerCount]).toEqual([1, 1]);
  const bar: StatusBarView = { sessionId: 's', segments: [] };
  bars.fire(bar);
  expect(first).toEqual([{ event: 'status.changed', payload: bar }]);
  expect(second).toEqual(first);

  // The first window closing leaves the other listening; the last one closing stops the listening.
  a.dispose();
  expect([bars.listenerCount, summaries.listenerCount]).toEqual([1, 1]);
  b.dispose();
  b.dispose();
  expect([bars.listenerCount, summaries.listenerCount]).toEqual([0, 0]);

  // A window opened again listens again; the map disposed stops it, and a window after that starts nothing.
  events.event(() => {});
  expect([bars.listenerCount, summaries.listenerCount]).toEqual([1, 1]);
  events.dispose();
  expect([bars.listenerCount, summaries.listenerCount]).toEqual([0, 0]);
  events.event(() => {});
  expect([bars.listenerCount, summaries.listenerCount]).toEqual([0, 0]);
});
