import { expect, test } from 'vitest';
import type { MessageClass } from '../../shared/context/index.ts';
import type { Message } from '../../shared/sessions/index.ts';
import { KEPT_HEADING, layeredSummary } from './layered-summary.ts';

const summary = { goal: 'g', decisions: [], files: [], openErrors: [], nextStep: 'n' };
const user = (text: string): Message => ({ role: 'user', content: text });
const result = (text: string): Message => ({ role: 'toolResult', toolCallId: 'c', toolName: 'read', content: [{ type: 'text', text }], isError: false });
const messages = [
  user('core request'),
  user(`old context ${'x'.repeat(800)}`),
  result(`FACT-123 ${'y'.repeat(4000)}`),
  user(`new context ${'z'.repeat(800)}`),
  user('noise'),
];
const classes: MessageClass[] = ['core', 'context', 'core', 'context', 'prune'];
const kept = (budget: number) => layeredSummary(messages, classes, summary, budget).keptIndexes;

test('with room, core and context stay word for word in order and prune never does', () => {
  const all = layeredSummary(messages, classes, summary, 100_000);
  expect(all.keptIndexes).toEqual([0, 1, 2, 3]);
  expect(all.text.split(KEPT_HEADING)[1]).toMatch(/^\[m1\] User: core request\n\n\[m2\] User: old context/);
  expect(all).toMatchObject({ kept: 4, summarised: 0, pruned: 1 });
});

test('short of room: the oldest context goes first, then core tool results are cut to what classify saw, then the oldest core goes', () => {
  // Everything: about 1,500 tokens; without the old context about 1,280.
  expect(kept(1300)).toEqual([0, 2, 3]);
  // Without both context messages about 1,060; the core result cut to 2,000 characters makes it about 560.
  const cut = layeredSummary(messages, classes, summary, 600);
  expect(cut.keptIndexes).toEqual([0, 2]);
  expect(cut.text).toContain('FACT-123');
  expect(cut.text).toMatch(/\[… 2009 more characters\]/);
  // Not even that: the oldest core message goes before the newer one.
  expect(kept(530)).toEqual([2]);
  expect(kept(10)).toEqual([]);
});

test('a replaced message (the old summary) is never kept word for word', () => {
  expect(layeredSummary(messages, classes, summary, 100_000, new Set([0])).keptIndexes).toEqual([1, 2, 3]);
});
