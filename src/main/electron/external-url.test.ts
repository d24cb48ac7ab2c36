import { expect, test } from 'vitest';
import { isSafeExternalUrl } from './external-url.ts';

test('only plain http(s) links may open in the OS browser', () => {
  expect(isSafeExternalUrl('https://example.com/docs?q=1')).toBe(true);
  expect(isSafeExternalUrl('http://localhost:3000/')).toBe(true);
  for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'https://user:pw@example.com/', 'not a url', 'ms-settings:privacy']) {
    expect(isSafeExternalUrl(bad)).toBe(false);
  }
});
