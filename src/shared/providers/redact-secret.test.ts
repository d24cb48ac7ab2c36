import { expect, test } from 'vitest';
import { redactSecret } from './redact-secret.ts';

test('the key is removed from every form it may be echoed in', () => {
  const key = 'k "y"/+';
  expect(redactSecret(`raw ${key}, encoded ${encodeURIComponent(key)}, in JSON ${JSON.stringify(key)}`, key)).toBe(
    'raw [key removed], encoded [key removed], in JSON "[key removed]"',
  );
  expect(redactSecret('nothing to hide', undefined)).toBe('nothing to hide');
});

test('a key pasted with spaces around it is removed in its trimmed form too', () => {
  expect(redactSecret('sent Bearer sk-abc123', '  sk-abc123\n')).toBe('sent Bearer [key removed]');
});
