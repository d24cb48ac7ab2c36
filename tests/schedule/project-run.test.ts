// A task in a project: each run starts in the project's folder with its defaults (here read mode, so a listed
// tool that writes is still refused by the mode), tagged with the task, and asks nobody.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { SCHEDULED_RUN_ENTRY, type ScheduledRunEnded, type ScheduledTask } from '../../src/shared/schedule/index.ts';
import { call, openSubagentRig, say, type SubagentRig } from '../subagents/subagent-rig.ts';

let rig: SubagentRig;
beforeEach(async () => {
  rig = await openSubagentRig({ subagents: false, app: () => ({ scheduler: { start: true } }) });
});
afterEach(async () => {
  await rig.close();
});

test('a project task’s run works in the project’s folder under its policy mode, with no question asked', async () => {
  const project = await rig.call<{ id: string; folder: string }>('projects.create', { name: 'Docs', folder: rig.workspace, policyMode: 'read' });
  const task = await rig.call<ScheduledTask>('schedule.add', {
    name: 'Tidy',
    prompt: 'Note the state, then write a file.',
    project: project.id,
    schedule: 'FREQ=DAILY;BYHOUR=6',
    tools: ['note', 'write'],
  });
  rig.route((r) =>
    r.results.length === 0
      ? call('note', { text: 'ok' })
      : r.results.length === 1
        ? call('write', { path: join(rig.workspace, 'out.txt'), content: 'x' })
        : say('Done.'),
  );
  const ended = new Promise<ScheduledRunEnded>((resolve) => {
    const sub = rig.app.scheduler.onDidEndRun((e) => {
      sub.dispose();
      resolve(e);
    });
  });
  await rig.call('schedule.runNow', { id: task.id });
  const { run } = await ended;
  expect(run.state).toBe('done');
  const sessionId = run.sessionId!;
  expect(rig.app.sessions.get(sessionId).cwd).toBe(project.folder);
  expect(rig.app.policy.mode(sessionId)).toBe('read');
  const entries = rig.app.sessions.path(sessionId);
  expect(entries[0]).toMatchObject({ type: 'custom', customType: SCHEDULED_RUN_ENTRY, data: { taskId: task.id } });
  const results = entries.flatMap((e) => (e.type === 'message' && e.message.role === 'toolResult' ? [[e.message.toolName, e.message.status]] : []));
  expect(results).toEqual([
    ['note', 'ok'],
    ['write', 'denied'],
  ]);
  expect(existsSync(join(rig.workspace, 'out.txt'))).toBe(false);
  expect(rig.events.filter((e) => e.event === 'approval.requested')).toEqual([]);
});
