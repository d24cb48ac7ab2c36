import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { CORE_SETTING_KEYS, CORE_SETTINGS, type SettingSpec } from '../../shared/settings/index.ts';
import { SessionStore } from '../sessions/index.ts';
import { type SettingChange, SettingsService } from './settings-service.ts';

let dir: string;
let store: SessionStore;
let warnings: string[];
let settings: SettingsService;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-settings-'));
  store = SessionStore.open(join(dir, 'amber.db'));
  warnings = [];
  settings = new SettingsService({ store, warn: (m) => warnings.push(m) });
});

afterEach(() => {
  settings.dispose();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('every key reads as its default when nothing is stored, and the defaults fit their own schemas', () => {
  for (const key of CORE_SETTING_KEYS) {
    const spec: SettingSpec = CORE_SETTINGS[key];
    expect(spec.schema.safeParse(spec.default).success, key).toBe(true);
    const value =
      spec.scope === 'global' ? settings.get(key as 'sandbox.network') : settings.get(key as 'policy.mode', spec.scope === 'plugin' ? 'some_plugin' : 's1');
    expect(value, key).toEqual(spec.default);
  }
  expect(warnings).toEqual([]);
});

test('typed values round-trip through the database in the forms the keys had before', () => {
  settings.set('policy.mode', 's1', 'yolo');
  settings.set('policy.approvalTimeoutSeconds', 90);
  settings.set('sandbox.network', true);
  settings.set('sandbox.network.conversation', 's1', false);
  settings.set('agent.instructions', 'Answer in French.');
  settings.set('plugin.config', 'wallet', { warnBelow: 5 });
  settings.set('providers.defaultModel', { provider: 'openrouter', modelId: 'm' });

  expect(store.getSetting('policy.mode.s1')).toBe('"yolo"');
  expect(store.getSetting('policy.approvalTimeoutSeconds')).toBe('90');
  expect(store.getSetting('sandbox.network')).toBe('true');
  expect(store.getSetting('sandbox.network.s1')).toBe('false');
  expect(store.getSetting('agent.instructions')).toBe('Answer in French.');
  expect(store.getSetting('plugin.wallet.config')).toBe('{"warnBelow":5}');

  const again = new SettingsService({ store });
  expect(again.get('policy.mode', 's1')).toBe('yolo');
  expect(again.get('policy.mode', 's2')).toBe('write');
  expect(again.get('policy.approvalTimeoutSeconds')).toBe(90);
  expect(again.get('sandbox.network')).toBe(true);
  expect(again.get('sandbox.network.conversation', 's1')).toBe(false);
  expect(again.get('agent.instructions')).toBe('Answer in French.');
  expect(again.get('plugin.config', 'wallet')).toEqual({ warnBelow: 5 });
  expect(again.get('providers.defaultModel')).toEqual({ provider: 'openrouter', modelId: 'm' });
});

test('null clears a setting, and so does clear: it reads as its default again', () => {
  settings.set('policy.approvalTimeoutSeconds', 30);
  settings.set('policy.approvalTimeoutSeconds', null);
  expect(store.getSetting('policy.approvalTimeoutSeconds')).toBeNull();
  settings.set('policy.readOnlyConfirmed', 'notes', true);
  settings.clear('policy.readOnlyConfirmed', 'notes');
  expect(store.getSetting('policy.readOnlyConfirmed.notes')).toBeNull();
  expect(settings.get('policy.readOnlyConfirmed', 'notes')).toBe(false);
});

test('a corrupt value reads as the default with one logged warning naming the key', () => {
  store.setSetting('policy.mode.s1', '{not json');
  store.setSetting('policy.approvalTimeoutSeconds', '-5');
  store.setSetting('sandbox.network', 'yes please');
  store.setSetting('providers.accounts', '[{"id":"BAD ID"}]');

  expect(settings.get('policy.mode', 's1')).toBe('write');
  expect(settings.get('policy.mode', 's1')).toBe('write');
  expect(settings.find('policy.mode', 's1')).toBeUndefined();
  expect(settings.get('policy.approvalTimeoutSeconds')).toBeNull();
  expect(settings.get('sandbox.network')).toBe(false);
  expect(settings.get('providers.accounts')).toEqual([]);

  expect(warnings).toHaveLength(4);
  expect(warnings[0]).toMatch(/policy\.mode\.s1 .*cannot be read.*"write"/);
  expect(warnings.join('\n')).toMatch(/policy\.approvalTimeoutSeconds/);
  expect(warnings.join('\n')).toMatch(/sandbox\.network/);
  expect(warnings.join('\n')).toMatch(/providers\.accounts/);
  // The stored value is left as it is: fixing it by hand is still possible.
  expect(store.getSetting('policy.mode.s1')).toBe('{not json');
});

test('unreadable stored tool rules throw instead of reading as no rules: a lost deny must not become an allow', () => {
  store.setSetting('policy.rules', '[{"effect":"deny","tool":');
  expect(() => settings.get('policy.rules')).toThrow(/tool rules cannot be read/);
  store.setSetting('policy.rules', '[{"effect":"maybe"}]');
  expect(() => settings.get('policy.rules')).toThrow(/tool rules cannot be read/);
  expect(warnings).toEqual([]);
});

test('a value outside its schema is refused with a sentence and nothing is stored', () => {
  settings.set('policy.approvalTimeoutSeconds', 60);
  expect(() => settings.set('policy.approvalTimeoutSeconds', 0)).toThrow(/policy\.approvalTimeoutSeconds cannot hold that value/);
  expect(() => settings.set('policy.mode', 's1', 'everything' as 'yolo')).toThrow(/policy\.mode cannot hold that value/);
  expect(() => settings.set('agent.instructions', 'x'.repeat(20_001))).toThrow(/agent\.instructions cannot hold that value/);
  expect(store.getSetting('policy.approvalTimeoutSeconds')).toBe('60');
  expect(store.getSetting('policy.mode.s1')).toBeNull();
  expect(store.getSetting('agent.instructions')).toBeNull();
});

test('a scoped key needs a well-formed id: no id, or a plugin id that could reach another key, is refused', () => {
  expect(() => settings.get('policy.mode', '')).toThrow(/kept per conversation/);
  expect(() => settings.set('plugin.config', 'x.y', {})).toThrow(/kept per plugin/);
  expect(() => settings.get('policy.readOnlyConfirmed', 'Bad Id')).toThrow(/not a plugin id/);
});

test('onDidChange says which key changed, and for which conversation or plugin, once per write', () => {
  const seen: SettingChange[] = [];
  const listening = settings.onDidChange((change) => seen.push(change));
  settings.set('policy.mode', 's1', 'read');
  settings.set('sandbox.network', true);
  settings.clear('plugin.process', 'notes');
  expect(() => settings.set('ui.walletThreshold', Number.NaN)).toThrow();
  listening.dispose();
  settings.set('sandbox.network', false);
  expect(seen).toEqual([
    { key: 'policy.mode', id: 's1' },
    { key: 'sandbox.network', id: null },
    { key: 'plugin.process', id: 'notes' },
  ]);
});
