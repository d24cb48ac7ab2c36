// /agents through the API on a real core: the built-ins, a user file and a workspace file that waits for a
// confirmation kept in the settings table (so it survives a restart of the core), then asks again once changed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';

let t: AppUnderTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const run = async (input: string, sessionId: string | null) =>
  (await t!.call<{ result: { kind: string; text: string } }>('commands.run', { input, sessionId })).result;

test('/agents lists the agents, says what replaced what and what waits; /agents confirm offers one until its file changes', async () => {
  t = openApp({
    prefix: 'amber-agents-cmd-',
    app: (d) => ({ home: d, workspace: join(d, 'ws') }),
    before: (d) => {
      mkdirSync(join(d, 'data', 'agents'), { recursive: true });
      writeFileSync(join(d, 'data', 'agents', 'explore.md'), '---\nname: explore\ndescription: My own explorer.\ntools: [read]\n---\nLook.\n');
      writeFileSync(join(d, 'data', 'agents', 'broken.md'), '---\nname: broken\n---\n');
      mkdirSync(join(d, 'ws', '.amber', 'agents'), { recursive: true });
      writeFileSync(
        join(d, 'ws', '.amber', 'agents', 'scout.md'),
        '---\nname: scout\ndescription: Scouts the repo.\nwrite: true\niterations: 5\n---\nScout.\n',
      );
    },
  });
  const ws = join(t.dir, 'ws');
  const sessionId = t.app.sessions.create({ title: 's', cwd: ws }).id;

  const listed = await run('/agents', sessionId);
  expect(listed.kind).toBe('ok');
  expect(listed.text).toContain(
    '• explore (yours, ' + join(t.dataDir, 'agents', 'explore.md') + ') — My own explorer. Tools: read; read-only. Replaces the built-in one.',
  );
  expect(listed.text).toContain('• general (built-in) — ');
  expect(listed.text).toMatch(
    /Waiting for your confirmation[^]*• scout \(this workspace, \.amber\/agents\/scout\.md\) — Scouts the repo\. Tools: every tool the conversation may use; may write; at most 5 turns\./,
  );
  expect(listed.text).toContain('/agents confirm scout');
  expect(listed.text).toMatch(/Skipped:\n• .*broken\.md: the field description is missing\./);
  expect(await t.app.agentDefinitions.get('scout', ws)).toBeUndefined();

  expect(await t.call('commands.complete', { input: '/agents confirm ' })).toEqual(
    expect.arrayContaining([expect.objectContaining({ label: 'scout' }), expect.objectContaining({ label: 'all' })]),
  );
  expect(await run('/agents confirm nobody', sessionId)).toMatchObject({
    kind: 'error',
    text: expect.stringMatching(/No agent named nobody .* waiting: scout/),
  });
  expect(await run('/agents confirm scout', sessionId)).toMatchObject({ kind: 'ok', text: expect.stringMatching(/^Confirmed scout/) });
  expect((await t.app.agentDefinitions.get('scout', ws))?.source).toBe('workspace');
  expect((await run('/agents', sessionId)).text).not.toContain('Waiting for your confirmation');

  // The confirmation is kept in the data folder: another core on it still offers scout.
  const { dataDir, dir } = t;
  const again = openApp({ prefix: 'amber-agents-cmd-again-', app: () => ({ dataDir, home: dir }) });
  try {
    expect((await again.app.agentDefinitions.get('scout', ws))?.maxIterations).toBe(5);
  } finally {
    await again.close();
  }

  writeFileSync(join(ws, '.amber', 'agents', 'scout.md'), '---\nname: scout\ndescription: Scouts the repo, now differently.\nwrite: true\n---\nScout.\n');
  expect(await t.app.agentDefinitions.get('scout', ws)).toBeUndefined();
  expect((await run('/agents', sessionId)).text).toContain('Changed since you confirmed it.');
});

test('/agents without a conversation lists the built-ins and yours; confirming needs a conversation', async () => {
  t = openApp({ prefix: 'amber-agents-cmd-' });
  expect((await run('/agents', null)).text).toMatch(/• explore \(built-in\)[^]*• general \(built-in\)/);
  expect(await run('/agents confirm all', null)).toMatchObject({ kind: 'error', text: expect.stringMatching(/Open a conversation/) });
});
