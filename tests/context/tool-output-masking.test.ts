// Layer 1 of context compression on real SQLite sessions: old tool output is hidden from the request (never
// from the stored session), in batches that keep the request's prefix byte for byte; repeated reads and loops
// of identical calls collapse.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { maskToolOutput, type MaskingSettings } from '../../src/main/agent/index.ts';
import { SessionStore } from '../../src/main/sessions/index.ts';
import type { Message, ToolResultMessage } from '../../src/shared/sessions/index.ts';

let dir: string;
let store: SessionStore;
let sessionId: string;
let calls = 0;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amber-masking-'));
  store = SessionStore.open(join(dir, 'amber.db'));
  sessionId = store.create({ title: 'masking', cwd: join(dir, 'ws') }).id;
  calls = 0;
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const settings: MaskingSettings = { maskAfterTokens: 4000, maskBatchTokens: 2000 };

function say(role: 'user' | 'assistant', text: string): void {
  const message: Message = role === 'user' ? { role, content: text } : { role, content: [{ type: 'text', text }], stopReason: 'stop' };
  store.append(sessionId, { type: 'message', message });
}

/** One reply calling `tool` and its result; returns the result's entry id. */
function toolTurn(tool: string, args: Record<string, unknown>, output: string, text = ''): string {
  const id = `call_${++calls}`;
  store.append(sessionId, {
    type: 'message',
    message: {
      role: 'assistant',
      content: [...(text ? [{ type: 'text' as const, text }] : []), { type: 'toolCall', id, name: tool, arguments: args }],
      stopReason: 'toolUse',
    },
  });
  return store.append(sessionId, {
    type: 'message',
    message: { role: 'toolResult', toolCallId: id, toolName: tool, content: [{ type: 'text', text: output }], isError: false },
  }).id;
}

/** A file's text of about `chars` characters, different per name. */
const fileText = (name: string, chars = 2000) => `// ${name}\n`.padEnd(chars, `${name} line\n`);

/** No batches: every rewrite of the past happens at once. */
const immediate: MaskingSettings = { maskAfterTokens: 4000, maskBatchTokens: 0 };
const request = (with_: MaskingSettings = settings) => maskToolOutput(store.context(sessionId), with_);
const results = (messages: readonly Message[]) => messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');
const textOf = (m: ToolResultMessage) => m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');

describe('masking old tool output', () => {
  test('a long branch sends old tool output as placeholders naming the call, its size and entry, recent output whole, and stores it all unchanged', () => {
    say('user', 'Read the project.');
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(toolTurn('read', { path: `src/file-${i}.ts` }, fileText(`file-${i}`)));
    const sent = request();
    const sentResults = results(sent.messages);
    expect(sent.masked).toBeGreaterThan(0);
    expect(sent.masked).toBeLessThan(20);
    // The oldest are masked, the newest kept whole, and nothing in between is out of order.
    const masked = sentResults.map((r) => textOf(r).startsWith('[Output hidden'));
    expect(masked.indexOf(false)).toBe(sent.masked);
    expect(masked.slice(sent.masked).every((m) => !m)).toBe(true);
    expect(textOf(sentResults[0]!)).toBe(
      `[Output hidden to keep the context small: read({"path":"src/file-0.ts"}) returned 2,000 characters (about 500 tokens). The full text stays in the conversation as entry ${ids[0]}; to see it again, repeat the call if it only reads, or ask for just the part you need.]`,
    );
    expect(textOf(sentResults[19]!)).toBe(fileText('file-19'));
    // The recent part keeps at least maskAfterTokens of the context whole.
    const wholeTokens = sentResults.slice(sent.masked).length * 500;
    expect(wholeTokens).toBeGreaterThanOrEqual(settings.maskAfterTokens - 500);
    // The stored session is as it was written.
    const stored = results(store.context(sessionId).messages);
    expect(stored.map(textOf)).toEqual(ids.map((_, i) => fileText(`file-${i}`)));
    expect(store.entry(sessionId, ids[0]!)).toMatchObject({ message: { content: [{ text: fileText('file-0') }] } });
  });

  test('the same branch gives the same request bytes, also from a store opened again', () => {
    say('user', 'Read.');
    for (let i = 0; i < 16; i++) toolTurn('read', { path: `f${i}` }, fileText(`f${i}`));
    const first = JSON.stringify(request().messages);
    expect(JSON.stringify(request().messages)).toBe(first);
    store.close();
    store = SessionStore.open(join(dir, 'amber.db'));
    expect(JSON.stringify(request().messages)).toBe(first);
  });

  test("appending turns keeps the request's bytes before them until the boundary jumps by a whole batch", () => {
    say('user', 'Read.');
    for (let i = 0; i < 12; i++) toolTurn('read', { path: `f${i}` }, fileText(`f${i}`));
    let before = request();
    const jumps: number[] = [];
    for (let step = 0; step < 30; step++) {
      if (step % 3 === 0) say('user', `a small question ${step}`);
      else toolTurn('read', { path: `g${step}` }, fileText(`g${step}`));
      const after = request();
      const prefix = JSON.stringify(after.messages.slice(0, before.messages.length));
      if (after.masked === before.masked) expect(prefix).toBe(JSON.stringify(before.messages));
      else {
        jumps.push(step);
        // A jump hides a whole batch at once (2,000 tokens: four results of 500).
        expect(after.masked - before.masked).toBeGreaterThanOrEqual(3);
        expect(prefix).not.toBe(JSON.stringify(before.messages));
      }
      before = after;
    }
    // About 20 turns of 500 tokens were added (10,000 tokens): the boundary moved about every 2,000 tokens.
    expect(jumps.length).toBeGreaterThanOrEqual(4);
    expect(jumps.length).toBeLessThanOrEqual(6);
  });

  test('maskAfterTokens 0 sends every tool output whole', () => {
    say('user', 'Read.');
    for (let i = 0; i < 20; i++) toolTurn('read', { path: `f${i}` }, fileText(`f${i}`));
    const context = store.context(sessionId);
    const sent = maskToolOutput(context, { maskAfterTokens: 0, maskBatchTokens: 2000 });
    expect(sent.masked).toBe(0);
    expect(JSON.stringify(sent.messages)).toBe(JSON.stringify(context.messages));
  });

  test('a file read again unchanged points from the older read to the later one; a changed file does not', () => {
    say('user', 'Look at a.ts.');
    const older = toolTurn('read', { path: 'a.ts' }, fileText('a'));
    toolTurn('read', { path: 'b.ts' }, fileText('b'));
    const later = toolTurn('read', { path: 'a.ts' }, fileText('a'));
    toolTurn('read', { path: 'b.ts' }, fileText('b changed'));
    const sent = request(immediate);
    expect(sent.repeats).toBe(1);
    const [first, second, third, fourth] = results(sent.messages);
    expect(textOf(first!)).toBe(`[Same output as the later read call with the same arguments (entry ${later}); left out here.]`);
    expect(textOf(second!)).toBe(fileText('b'));
    expect(textOf(third!)).toBe(fileText('a'));
    expect(textOf(fourth!)).toBe(fileText('b changed'));
    expect(store.entry(sessionId, older)).toMatchObject({ message: { content: [{ text: fileText('a') }] } });
  });

  test('a loop of identical calls with identical results is sent once with its count', () => {
    say('user', 'Check the build.');
    for (let i = 0; i < 4; i++) toolTurn('bash', { command: 'npm run build' }, 'error TS2322: Type string is not assignable to number.', 'Trying again.');
    toolTurn('bash', { command: 'npm test' }, 'ok');
    const raw = store.context(sessionId).messages;
    const sent = request(immediate);
    expect(sent.loopPairs).toBe(3);
    expect(sent.messages).toHaveLength(raw.length - 6);
    const sentResults = results(sent.messages);
    expect(sentResults).toHaveLength(2);
    expect(textOf(sentResults[0]!)).toBe(
      'error TS2322: Type string is not assignable to number.\n\n[This same call returned this same result 4 times in a row; the 3 earlier times are left out here.]',
    );
    // The kept call is the last one, so its result still answers it.
    const call = sent.messages[sent.messages.indexOf(sentResults[0]!) - 1]!;
    expect(call).toMatchObject({ role: 'assistant', content: [{ type: 'text' }, { type: 'toolCall', id: sentResults[0]!.toolCallId }] });
    // Two identical pairs are not a loop yet.
    const two = maskToolOutput({ entries: store.context(sessionId).entries.slice(0, 5), messages: raw.slice(0, 5) }, immediate);
    expect(two.loopPairs).toBe(0);
  });

  test('a file read again unchanged leaves the request before it as it was until the next batch jump', () => {
    say('user', 'Read.');
    const older: string[] = [];
    for (let i = 0; i < 12; i++) older.push(toolTurn('read', { path: `f${i}` }, fileText(`f${i}`)));
    const first = request();
    const again = toolTurn('read', { path: 'f9' }, fileText('f9'));
    let before = request();
    expect(JSON.stringify(before.messages.slice(0, first.messages.length))).toBe(JSON.stringify(first.messages));
    expect(before.repeats).toBe(0);
    let jumped = false;
    for (let step = 0; step < 8 && !jumped; step++) {
      toolTurn('read', { path: `g${step}` }, fileText(`g${step}`));
      const after = request();
      const olderRead = results(after.messages)[9]!;
      if (after.masked === before.masked) {
        expect(after.repeats).toBe(0);
        expect(textOf(olderRead)).toBe(fileText('f9'));
        expect(JSON.stringify(after.messages.slice(0, before.messages.length))).toBe(JSON.stringify(before.messages));
      } else {
        jumped = true;
        expect(after.repeats).toBe(1);
        expect(textOf(olderRead)).toBe(`[Same output as the later read call with the same arguments (entry ${again}); left out here.]`);
      }
      before = after;
    }
    expect(jumped).toBe(true);
    expect(older).toHaveLength(12);
  });
});
