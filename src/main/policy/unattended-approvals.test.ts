import { expect, test } from 'vitest';
import { UnattendedApprovals, type UnattendedCall } from './unattended-approvals.ts';

const shell = (line: string, prefixes: string[] | null, extra: Partial<NonNullable<UnattendedCall['command']>> = {}): UnattendedCall => ({
  toolName: 'bash',
  shell: true,
  protectedPath: false,
  command: { line, class: 'unknown', outside: [], prefixes, ...extra },
});

test('an allowance names a tool, or a shell tool and a command prefix (spaces tidied)', () => {
  expect(UnattendedApprovals.parse('read')).toEqual({ tool: 'read' });
  expect(UnattendedApprovals.parse('bash:  npm   test ')).toEqual({ tool: 'bash', prefix: 'npm test' });
});

test('hostile: allowances that name no tool or no prefix, huge ones and too many are refused with a sentence', () => {
  for (const bad of ['', ':npm test', 'ba sh', 'bash:', 'bash:   ', `bash:${'x'.repeat(201)}`, 'x'.repeat(65), 'bash:a\0b', '../read']) {
    expect(() => UnattendedApprovals.parse(bad), JSON.stringify(bad).slice(0, 40)).toThrow(/allowance|command prefix/);
  }
  expect(() => new UnattendedApprovals(Array.from({ length: 201 }, () => 'read'))).toThrow(/At most 200/);
});

test('a tool name covers that tool, never a shell tool; a prefix covers lines whose every command has it, as "always" would', () => {
  const a = new UnattendedApprovals(['read', 'bash', 'bash:npm test']);
  expect(a.decide({ toolName: 'read', shell: false, protectedPath: false })).toBe(true);
  expect(a.decide({ toolName: 'write', shell: false, protectedPath: false })).toBe(false);
  expect(a.decide({ toolName: 'read', shell: false, protectedPath: true })).toBe(false);
  expect(a.decide(shell('npm test', ['npm test']))).toBe(true);
  expect(a.decide(shell('npm test && curl x', ['npm test', 'curl']))).toBe(false);
  expect(a.decide(shell('frob', ['frob']))).toBe(false);
  expect(a.decide(shell('npm test', ['npm test'], { class: 'destructive' }))).toBe(false);
  expect(a.decide(shell('npm test /etc', ['npm test'], { outside: ['/etc'] }))).toBe(false);
  expect(a.decide(shell('eval x', null))).toBe(false);
  expect(a.decided().map((d) => d.allowed)).toEqual([true, false, false, true, false, false, false, false, false]);
  expect(a.decided()[3]).toEqual({ toolName: 'bash', line: 'npm test', allowed: true });
});
