import fc from 'fast-check';
import { expect, test } from 'vitest';
import { ShellSandbox } from '../../shared/tools/index.ts';
import { shellSandbox } from './shell-sandbox.ts';

test('a well-formed sandbox passes as main sent it, unknown fields left out', () => {
  expect(shellSandbox({ mode: 'write', network: true, unsandboxed: false, writable: ['/w/.git'], extra: 1 })).toEqual({
    mode: 'write',
    network: true,
    unsandboxed: false,
    writable: ['/w/.git'],
  });
  expect(shellSandbox({ mode: 'read', network: false })).toEqual({ mode: 'read', network: false });
});

test('a malformed sandbox is dropped whole, never half-read', () => {
  for (const bad of [
    null,
    undefined,
    'read',
    [],
    { mode: 'none', network: false },
    { mode: 'read' },
    { mode: 'write', network: 'yes' },
    { mode: 'write', network: false, unsandboxed: 1 },
    { mode: 'write', network: false, writable: '/w' },
    { mode: 'write', network: false, writable: [''] },
    { mode: 'write', network: false, writable: Array(17).fill('/w') },
  ]) {
    expect(shellSandbox(bad)).toBeNull();
  }
});

/** A field that may be missing. */
const field = <T>(values: fc.Arbitrary<T>) => fc.option(values, { nil: undefined });

test('the hand check accepts exactly what the shared zod schema accepts, with the same result', () => {
  const raw = fc.record(
    {
      mode: field(fc.constantFrom<unknown>('read', 'write', 'yolo', 'none', 1, null)),
      network: field(fc.constantFrom<unknown>(true, false, 'true', 0)),
      unsandboxed: field(fc.constantFrom<unknown>(true, false, 'no', null)),
      writable: field(fc.oneof(fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.constant(1)), { maxLength: 18 }), fc.constant<unknown>('x'))),
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(raw, (value) => {
      const parsed = ShellSandbox.safeParse(value);
      expect(shellSandbox(value)).toEqual(parsed.success ? parsed.data : null);
    }),
    { numRuns: 2000 },
  );
});
