import { expect, test } from 'vitest';
import type { Entry } from '../../shared/sessions/index.ts';
import { sandboxChip } from './sandbox-chip.ts';
import { toTranscriptItems } from './transcript-model.ts';

test('a shell result says how it was confined, the sandbox modes quietly and the rest so that it stands out', () => {
  expect(sandboxChip({ sandbox: 'read' })).toMatchObject({ label: 'sandboxed (read)', className: 'chip' });
  expect(sandboxChip({ sandbox: 'write' })).toMatchObject({ label: 'sandboxed (write)' });
  expect(sandboxChip({ sandbox: 'yolo', network: true })).toMatchObject({ label: 'sandboxed (yolo)' });
  expect(sandboxChip({ sandbox: 'unsandboxed' })).toMatchObject({ label: 'not sandboxed', className: 'chip chip-awaiting' });
  expect(sandboxChip({ sandbox: 'none' })).toMatchObject({ label: 'not sandboxed' });
  expect(sandboxChip({ sandbox: 'unavailable' })).toMatchObject({ className: 'chip chip-error' });
});

test('a result without a known sandbox value shows no chip', () => {
  for (const details of [undefined, null, 'read', {}, { sandbox: 'toString' }, { sandbox: 'other' }, { sandbox: 1 }]) expect(sandboxChip(details)).toBeNull();
});

test("a shell call's card gets its result's details, so the chip shows once the result is stored", () => {
  const entries = [
    {
      id: 'a',
      parentId: null,
      type: 'message',
      timestamp: '2026-11-30T00:00:00.000Z',
      message: { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'ls' } }], stopReason: 'toolUse' },
    },
    {
      id: 'r',
      parentId: 'a',
      type: 'message',
      timestamp: '2026-11-30T00:00:01.000Z',
      message: {
        role: 'toolResult',
        toolCallId: 'c1',
        toolName: 'bash',
        content: [{ type: 'text', text: 'x' }],
        isError: false,
        details: { exitCode: 0, sandbox: 'write', network: false },
      },
    },
  ] as unknown as Entry[];
  const [item] = toTranscriptItems(entries);
  const tool = item?.kind === 'assistant' ? item.tools[0] : undefined;
  expect(sandboxChip(tool?.details)?.label).toBe('sandboxed (write)');
  expect(toTranscriptItems(entries.slice(0, 1)).flatMap((i) => (i.kind === 'assistant' ? i.tools.map((t) => t.details) : []))).toEqual([undefined]);
});
