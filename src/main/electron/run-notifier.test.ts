import { expect, test } from 'vitest';
import type { ScheduledRun } from '../../shared/schedule/index.ts';
import { runNotifier, type SystemNotice } from './run-notifier.ts';

const run = (state: ScheduledRun['state'], error: string | null = null): ScheduledRun => ({
  id: 'r',
  taskId: 't',
  sessionId: state === 'missed' ? null : 's',
  state,
  startedAt: 0,
  endedAt: 1,
  error,
  missed: 0,
});

test('a run that finishes or fails is a system notification naming the task; a failure says why', () => {
  const shown: SystemNotice[] = [];
  const notify = runNotifier((n) => shown.push(n));
  notify({ task: { id: 't', name: 'Morning notes' }, run: run('done') });
  notify({ task: { id: 't', name: 'Morning notes' }, run: run('failed', 'No model is set up.') });
  notify({ task: { id: 't', name: 'Morning notes' }, run: run('running') });
  expect(shown).toEqual([
    { title: '“Morning notes” finished', body: 'Its conversation is in Amber’s list.' },
    { title: '“Morning notes” failed', body: 'No model is set up.' },
  ]);
});
