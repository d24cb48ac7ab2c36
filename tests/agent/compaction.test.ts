import { afterEach, describe, expect, test } from 'vitest';
import type { Usage } from '../../src/shared/sessions/index.ts';
import { createHarness, textOf, transcript, type Harness } from './agent-harness.ts';
import { MODEL, failure, stall, text } from './scripted-provider.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const small = { ...MODEL, contextWindow: 1000 };
// These tests are of the summary pass alone (layer 2's classify + extract: tests/context/layered-compaction.test.ts).
const compaction = { enabled: true, threshold: 0.5, keepRecentTokens: 100, strategy: 'summary' as const };

/** Six messages of about 100 tokens each (400 characters). */
function fillHistory(harness: Harness, usage?: Usage): void {
  for (let i = 1; i <= 3; i++) {
    harness.store.append(harness.sessionId, { type: 'message', message: { role: 'user', content: `question ${i} `.padEnd(400, 'q') } });
    const message = { role: 'assistant' as const, content: [{ type: 'text' as const, text: `answer ${i} `.padEnd(400, 'a') }], stopReason: 'stop' as const };
    harness.store.append(harness.sessionId, { type: 'message', message: usage && i === 3 ? { ...message, usage } : message });
  }
}

const isSummaryRequest = (r: { systemPrompt: string; tools: unknown[] }): boolean => /working summary/.test(r.systemPrompt) && r.tools.length === 0;

describe('compaction', () => {
  test('past the threshold, the older part is summarised into a compaction entry and the run goes on from it', async () => {
    h = createHarness([text('SUMMARY OF EARLIER WORK'), text('Fresh answer.')], { model: small, compaction });
    fillHistory(h);
    const entriesBefore = h.path().length;
    const result = await h.agent.prompt(h.sessionId, 'next question');
    expect(result.reason).toBe('stop');
    expect(h.provider.requests).toHaveLength(2);
    expect(isSummaryRequest(h.provider.requests[0]!)).toBe(true);
    expect(textOf(h.provider.requests[0]!.messages[0])).toMatch(/question 1/);

    const path = h.path();
    const comp = path.find((e) => e.type === 'compaction');
    expect(comp).toMatchObject({ type: 'compaction', summary: 'SUMMARY OF EARLIER WORK' });
    if (comp?.type !== 'compaction') throw new Error('no compaction entry');
    expect(comp.tokensBefore).toBeGreaterThan(500);
    expect(path.length).toBe(entriesBefore + 3); // prompt, compaction, reply
    // The compaction sits under the leaf and keeps the recent part word for word.
    const kept = h.store.entry(h.sessionId, comp.firstKeptEntryId);
    expect(kept.type === 'message' && textOf(kept.message)).toMatch(/^answer 3/);
    const main = h.provider.requests[1]!.messages;
    expect(textOf(main[0])).toBe('The conversation so far, summarised:\n\nSUMMARY OF EARLIER WORK');
    expect(transcript(main.slice(1)).map((t) => t.slice(0, 18))).toEqual(['assistant:answer 3', 'user:next question']);
    expect(h.store.context(h.sessionId).entries[0]!.type).toBe('compaction');
    expect(h.events.some((e) => e.type === 'entry_appended' && e.entry.type === 'compaction')).toBe(true);
  });

  test('the last reported usage decides when it is known, not the length of the text', async () => {
    h = createHarness([text('short'), text('SUMMARY'), text('ok')], { model: small, compaction });
    h.store.append(h.sessionId, { type: 'message', message: { role: 'user', content: 'hi' } });
    await h.agent.prompt(h.sessionId, 'tiny'); // no usage, tiny context: no compaction
    expect(h.provider.requests).toHaveLength(1);
    // The same tiny context, but the model reported 900 tokens used: compact first.
    h.store.append(h.sessionId, {
      type: 'message',
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: 'noted' }],
        stopReason: 'stop',
        usage: { input: 850, output: 50, cacheRead: 0, cacheWrite: 0 },
      },
    });
    await h.agent.prompt(h.sessionId, 'more');
    expect(isSummaryRequest(h.provider.requests[1]!)).toBe(true);
    expect(h.path().some((e) => e.type === 'compaction')).toBe(true);
  });

  test('usage reported before a compaction is stale and does not trigger another', async () => {
    h = createHarness([text('SUMMARY'), text('Fresh answer.'), text('Another answer.')], { model: small, compaction });
    fillHistory(h, { input: 850, output: 50, cacheRead: 0, cacheWrite: 0 });
    await h.agent.prompt(h.sessionId, 'next');
    expect(isSummaryRequest(h.provider.requests[0]!)).toBe(true);
    // The kept "answer 3" still carries its 900-token usage; the context after the cut is far smaller.
    expect(h.store.context(h.sessionId).messages.some((m) => m.role === 'assistant' && m['usage'] !== undefined)).toBe(true);
    await h.agent.prompt(h.sessionId, 'and then?');
    expect(h.provider.requests.map((r) => (isSummaryRequest(r) ? 'summary' : 'main'))).toEqual(['summary', 'main', 'main']);
  });

  test('a context-overflow error triggers one compaction and one retry', async () => {
    h = createHarness([failure('context_overflow', 'The prompt is too long for this model.'), text('SUMMARY'), text('Answer after room was made.')], {
      model: small,
      compaction: { ...compaction, threshold: 10 },
    });
    fillHistory(h);
    const result = await h.agent.prompt(h.sessionId, 'next');
    expect(result.reason).toBe('stop');
    expect(h.provider.requests.map((r) => (isSummaryRequest(r) ? 'summary' : 'main'))).toEqual(['main', 'summary', 'main']);
    const types = h
      .path()
      .slice(-4)
      .map((e) => (e.type === 'message' ? `${e.message.role}:${String(e.message['stopReason'] ?? '')}` : e.type));
    expect(types).toEqual(['user:', 'assistant:error', 'compaction', 'assistant:stop']);
    expect(textOf(h.provider.requests[2]!.messages[0])).toMatch(/summarised:\n\nSUMMARY$/);
    expect(h.store.context(h.sessionId).messages.some((m) => m['stopReason'] === 'error')).toBe(false);
  });

  test('a second overflow after the retry ends the run with the error', async () => {
    h = createHarness([failure('context_overflow', 'Too long.'), text('SUMMARY'), failure('context_overflow', 'Still too long.'), text('never')], {
      model: small,
      compaction: { ...compaction, threshold: 10 },
    });
    fillHistory(h);
    const result = await h.agent.prompt(h.sessionId, 'next');
    expect(result).toMatchObject({ reason: 'error', error: 'Still too long.' });
    expect(h.provider.requests).toHaveLength(3);
    expect(h.path().filter((e) => e.type === 'compaction')).toHaveLength(1);
  });

  test('a failed compaction past the threshold leaves the session untouched and the turn goes on', async () => {
    h = createHarness([failure('server', 'The summariser is down.'), text('Answer anyway.')], { model: small, compaction });
    fillHistory(h);
    const before = [...h.store.allEntries(h.sessionId)].length;
    const result = await h.agent.prompt(h.sessionId, 'next');
    expect(result.reason).toBe('stop');
    const all = [...h.store.allEntries(h.sessionId)];
    expect(all.some((e) => e.type === 'compaction')).toBe(false);
    expect(all.length).toBe(before + 2); // only the prompt and the reply
    expect(h.events.find((e) => e.type === 'notice')).toMatchObject({ code: 'compaction_failed', message: expect.stringMatching(/summariser is down/) });
  });

  test('a failed compaction after an overflow ends the run and writes no compaction', async () => {
    h = createHarness([failure('context_overflow', 'Too long.'), text('   ')], { model: small, compaction: { ...compaction, threshold: 10 } });
    fillHistory(h);
    const result = await h.agent.prompt(h.sessionId, 'next');
    expect(result).toMatchObject({ reason: 'error', error: 'Too long.' });
    expect([...h.store.allEntries(h.sessionId)].some((e) => e.type === 'compaction')).toBe(false);
  });

  test('an overflow with nothing older to summarise ends the run and says what to do', async () => {
    // A first message the model refuses as too long: there is no older part to summarise.
    h = createHarness([failure('context_overflow', 'Too long.'), text('never')], { model: small, compaction: { ...compaction, threshold: 10 } });
    const result = await h.agent.prompt(h.sessionId, 'a very long paste');
    expect(result).toMatchObject({ reason: 'error', error: 'Too long.' });
    expect(h.provider.requests).toHaveLength(1);
    expect(h.events.find((e) => e.type === 'notice')).toMatchObject({
      code: 'compaction_failed',
      message: expect.stringMatching(
        new RegExp(
          `nothing older to summarise yet\\. The newest messages alone are too long for ${small.id}: shorten the message, or pick a model with a larger context window\\.$`,
        ),
      ),
    });
  });

  test('a compaction past the threshold with nothing older to summarise gives no such advice: the model did not refuse', async () => {
    h = createHarness([text('Fine.')], { model: small, compaction: { ...compaction, threshold: 0.5 } });
    await h.agent.prompt(h.sessionId, 'x'.repeat(small.contextWindow * 3));
    const notice = h.events.find((e) => e.type === 'notice' && e.code === 'compaction_failed');
    expect(notice).toMatchObject({ message: expect.stringMatching(/nothing older to summarise yet\.$/) });
  });

  test('an abort during compaction writes nothing', async () => {
    let summarising: (() => void) | undefined;
    const isSummarising = new Promise<void>((res) => (summarising = res));
    h = createHarness([stall('SUMM', () => summarising?.())], { model: small, compaction });
    fillHistory(h);
    const run = h.agent.start(h.sessionId, 'next');
    await isSummarising;
    expect(isSummaryRequest(h.provider.requests[0]!)).toBe(true);
    h.agent.abort(h.sessionId);
    expect((await run.done).reason).toBe('aborted');
    expect([...h.store.allEntries(h.sessionId)].some((e) => e.type === 'compaction')).toBe(false);
  });
});

describe('compacting by hand', () => {
  test('compact() summarises the older part now, below the threshold, with the branch model', async () => {
    h = createHarness([text('HAND SUMMARY')], { model: MODEL, compaction: { enabled: true, threshold: 0.99, keepRecentTokens: 100, strategy: 'summary' } });
    fillHistory(h);
    const outcome = await h.agent.compact(h.sessionId);
    expect(outcome).toMatchObject({ ok: true, entry: { type: 'compaction', summary: 'HAND SUMMARY' } });
    expect(h.provider.requests).toHaveLength(1);
    expect(isSummaryRequest(h.provider.requests[0]!)).toBe(true);
    expect(h.store.context(h.sessionId).entries[0]!.type).toBe('compaction');
  });

  test('with nothing older to summarise, or while a run goes on, nothing is written', async () => {
    h = createHarness([stall('partial')], { model: MODEL });
    expect(await h.agent.compact(h.sessionId)).toEqual({ ok: false, reason: 'There is nothing older to summarise yet.', nothingOlder: true });
    const run = h.agent.start(h.sessionId, 'hello');
    await h.next('message_start');
    await expect(h.agent.compact(h.sessionId)).rejects.toThrow(/A reply is still running in this conversation; stop it or wait for it before you summarise it/);
    h.agent.abort(h.sessionId);
    await run.done;
    expect([...h.store.allEntries(h.sessionId)].some((e) => e.type === 'compaction')).toBe(false);
  });
});
