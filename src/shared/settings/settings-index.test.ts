import { expect, test } from 'vitest';
import { CORE_SETTINGS, type SettingSpec } from './core-settings.ts';
import { parseSettingInput, resolveSettingName, SETTINGS_INDEX, settingIndexEntry, settingInputHints } from './settings-index.ts';

test('every index entry backed by a core setting has its scope, and every value it completes fits that setting', () => {
  for (const entry of SETTINGS_INDEX.filter((e) => e.key !== undefined)) {
    const spec: SettingSpec = CORE_SETTINGS[entry.key!];
    expect(entry.scope, entry.name).toBe(spec.scope);
    for (const hint of settingInputHints(entry)) {
      const parsed = parseSettingInput(entry, hint.value);
      expect(parsed, `${entry.name} ${hint.value}`).toMatchObject({ ok: true });
      if (parsed.ok && parsed.value !== null) expect(spec.schema.safeParse(parsed.value).success, `${entry.name} ${hint.value}`).toBe(true);
    }
  }
});

test('names are unique, and a value just past a range or a text limit is refused', () => {
  expect(new Set(SETTINGS_INDEX.map((e) => e.name)).size).toBe(SETTINGS_INDEX.length);
  const timeout = settingIndexEntry('policy.approvalTimeoutSeconds')!;
  expect(parseSettingInput(timeout, '86,400')).toEqual({ ok: true, value: 86_400 });
  expect(parseSettingInput(timeout, '86401')).toMatchObject({ ok: false });
  expect(parseSettingInput(timeout, '0')).toMatchObject({ ok: false });
  expect(parseSettingInput(timeout, 'NONE')).toEqual({ ok: true, value: null });
  const instructions = settingIndexEntry('agent.instructions')!;
  expect(parseSettingInput(instructions, 'x'.repeat(20_000))).toMatchObject({ ok: true });
  expect(parseSettingInput(instructions, 'x'.repeat(20_001))).toMatchObject({ ok: false, problem: expect.stringMatching(/at most 20,000 characters/) });
  expect(parseSettingInput(settingIndexEntry('sandbox.network')!, 'default')).toMatchObject({ ok: false });
  expect(settingIndexEntry('nothing.like.this')).toBeUndefined();
});

test('a name resolves whole, or by the end of exactly one name after a dot', () => {
  expect(resolveSettingName('policy.mode').entry?.name).toBe('policy.mode');
  expect(resolveSettingName('mode').entry?.name).toBe('policy.mode');
  expect(resolveSettingName('network').entry?.name).toBe('sandbox.network');
  expect(resolveSettingName('conversation')).toEqual({ candidates: ['sandbox.network.conversation', 'agent.instructions.conversation'] });
  expect(resolveSettingName('de')).toEqual({});
  expect(resolveSettingName('')).toEqual({});
});
