import { expect, test } from 'vitest';
import { SETTINGS_PAGES, settingsPageAfterKey } from './settings-pages.ts';

test('Settings opens on Models, and the arrow keys step through the pages, wrapping; Home and End jump', () => {
  expect(SETTINGS_PAGES[0].id).toBe('models');
  expect(settingsPageAfterKey('models', 'ArrowDown')).toBe('conversations');
  expect(settingsPageAfterKey('models', 'ArrowUp')).toBe('advanced');
  expect(settingsPageAfterKey('advanced', 'ArrowDown')).toBe('models');
  expect(settingsPageAfterKey('policy', 'Home')).toBe('models');
  expect(settingsPageAfterKey('policy', 'End')).toBe('advanced');
  expect(settingsPageAfterKey('policy', 'Enter')).toBeNull();
});
