import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { Entry } from '../../shared/sessions/index.ts';
import { type App, createApp } from '../app.ts';
import { usageTotals } from './status-service.ts';

let dir: string;
let app: App;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-status-'));
  app = createApp({ dataDir: dir, startPlugins: false });
});

afterEach(async () => {
  await app.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const reply = (id: string, usage: Record<string, unknown>, role = 'assistant') =>
  Entry.parse({ id, parentId: null, timestamp: new Date(0).toISOString(), type: 'message', message: { role, content: [{ type: 'text', text: 'ok' }], stopReason: 'stop', usage } });

test('the core builds one status service, and its bar counts the tokens of the replies on the branch', () => {
  const s = app.sessions.create({ title: 'Counted', cwd: dir });
  app.sessions.appendMany(s.id, [
    { type: 'message', message: { role: 'user', content: 'hi' } },
    { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'hello' }], stopReason: 'stop', usage: { input: 1200, output: 30 } } },
  ]);
  const bar = app.status.list(s.id);
  expect(bar.segments.find((seg) => seg.id === 'core.tokens')?.text).toBe('↑ 1.2k ↓ 30');
});

test('usage carried by a message of another role is not counted as a reply', () => {
  const totals = usageTotals([reply('a', { input: 10, output: 5, cost: { total: 0.5 } }), reply('b', { input: 999, output: 999, cost: { total: 9 } }, 'custom')], null);
  expect(totals).toEqual({ input: 10, output: 5, cost: 0.5, unpriced: 0 });
});
