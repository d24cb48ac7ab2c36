// Answers for layer 2's requests on the OpenAI-compatible wire, by what the request asks: classify (each message
// by simple rules it can see — a path or a number makes it core, a bare acknowledgement prune), extract (a
// structured summary and one memory), the summary pass, or a turn.
import { jsonError, openAiStream, type RecordedRequest, type Reply } from '../fixtures/provider-server.ts';

export type WireBody = { messages: { role: string; content: unknown }[]; response_format?: { json_schema?: { name?: string } } };

export const bodyOf = (r: RecordedRequest): WireBody => r.body as WireBody;
export const schemaOf = (r: RecordedRequest): string | undefined => bodyOf(r).response_format?.json_schema?.name;
export const kindOf = (r: RecordedRequest): 'classify' | 'extract' | 'summary' | 'turn' => {
  const schema = schemaOf(r);
  if (schema === 'classify_messages') return 'classify';
  if (schema === 'extract_summary') return 'extract';
  const system = bodyOf(r).messages[0];
  return system?.role === 'system' && /working summary/.test(String(system.content)) ? 'summary' : 'turn';
};

/** The classify answer the rules give for the transcript the request carries. */
export function classifyByRules(r: RecordedRequest): string {
  const transcript = String(bodyOf(r).messages.find((m) => m.role === 'user')?.content ?? '');
  const items = [...transcript.matchAll(/^\[(m\d+)\] ([^\n]*(?:\n(?!\[m\d+\] )[^\n]*)*)/gm)].map(([, id, block]) => {
    const text = block!.trim();
    return { id: id!, class: /\.(ts|md|json|txt)\b|\d{3,}/.test(text) ? 'core' : /^Assistant: (ok|noted|sure)\.?$/i.test(text) ? 'prune' : 'context' };
  });
  return JSON.stringify({ items });
}

export const EXTRACTED = {
  summary: { goal: 'Port the parser', decisions: ['Keep the old API'], files: ['src/parser.ts'], openErrors: [], nextStep: 'Run the tests' },
  memories: [{ text: 'The user prefers tabs', kind: 'user' }],
  skills: [],
};

const usage = (input: number) => ({ input, output: 10 });

/** A reply for each kind; `fail` turns the named step into a failure of the given form. */
export function layeredReply(r: RecordedRequest, fail: { step?: 'classify' | 'extract' | 'summary'; as?: 'http' | 'junk' } = {}): Reply {
  const kind = kindOf(r);
  if (kind === fail.step)
    return fail.as === 'junk' ? openAiStream({ text: 'not json at all', usage: usage(100) }) : jsonError(400, `The ${kind} request is refused.`);
  if (kind === 'classify') return openAiStream({ text: classifyByRules(r), usage: usage(1000) });
  if (kind === 'extract') return openAiStream({ text: JSON.stringify(EXTRACTED), usage: usage(1100) });
  if (kind === 'summary') return openAiStream({ text: 'SUMMARY PASS', usage: usage(900) });
  return openAiStream({ text: 'Fresh answer.', usage: usage(300) });
}
