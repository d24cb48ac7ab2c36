// A lazy user plugin in the whole app: its command completes and runs from the command line before its
// process exists, and `/set plugin on|off` treats "ready, not started" as on.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { App } from '../../src/main/app.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

let t: AppUnderTest;
let app: App;

/** A lazy user plugin in `dir`'s plugins folder whose one command answers from its own process. */
function writeLaterPlugin(dir: string): void {
  const folder = join(dir, 'plugins', 'later');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'manifest.json'),
    JSON.stringify({
      id: 'later',
      version: '0.1.0',
      name: 'Later',
      protocolVersion: 1,
      entry: 'index.js',
      contributes: [{ kind: 'command', path: ['later', 'now'], help: 'Answers from the plugin process.' }],
      activationEvents: ['onCommand:later now'],
    }),
  );
  writeFileSync(
    join(folder, 'index.js'),
    `export default { protocolVersion: 1, initialize() { return true; }, shutdown() {}, capabilities() {
      return [{ kind: 'command', path: ['later', 'now'], help: 'Answers from the plugin process.', run: () => 'answered by ' + process.pid }];
    } };\n`,
  );
}

beforeEach(() => {
  t = openApp({ prefix: 'amber-lazy-app-', before: writeLaterPlugin, app: (dir) => ({ dataDir: dir }) });
  ({ app } = t);
});

afterEach(() => t.close());

const ok = <T>(channel: string, input: unknown = {}) => t.call<T>(channel, input);

const command = async (input: string): Promise<{ kind: string; text: string }> =>
  (await ok<{ result: { kind: string; text: string } }>('commands.run', { input })).result;

test("a lazy user plugin's command completes and runs from the command line, the run starting its process", async () => {
  await ok('plugins.rescan');
  const on = await ok<{ state: string; pid: number | null }>('plugins.setState', { id: 'later', enabled: true, confirm: true });
  expect(on).toMatchObject({ state: 'idle', pid: null });
  const completions = await ok<{ insert: string }[]>('commands.complete', { input: '/later n' });
  expect(completions.map((c) => c.insert)).toContain('/later now ');

  const result = await command('/later now');
  const pid = app.plugins.get('later').pid;
  expect(pid).toBeGreaterThan(0);
  expect(result).toEqual({ kind: 'ok', text: `answered by ${pid}` });
  // The running plugin's own command replaced the manifest's: it still completes and runs.
  expect((await ok<{ insert: string }[]>('commands.complete', { input: '/later n' })).map((c) => c.insert)).toContain('/later now ');
  expect(await command('/later now')).toEqual({ kind: 'ok', text: `answered by ${pid}` });
});

test('/set plugin off and on a lazy plugin says it is on when it is ready without a process', async () => {
  expect(await command('/set plugin off workspace_tools')).toEqual({ kind: 'ok', text: 'Workspace tools is off.' });
  expect(await command('/set plugin on workspace_tools')).toEqual({ kind: 'ok', text: 'Workspace tools is on.' });
  expect(app.plugins.get('workspace_tools')).toMatchObject({ state: 'idle', pid: null });
});
