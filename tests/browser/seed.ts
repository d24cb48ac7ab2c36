// Conversations written straight into the store, for flows that do not need a model.
import type { Entry } from '../../src/shared/sessions/index.ts';
import type { SessionStore } from '../../src/main/sessions/index.ts';

export const user = (text: string) => ({ type: 'message' as const, message: { role: 'user' as const, content: text } });
export const assistant = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'message' as const,
  message: { role: 'assistant' as const, content: [{ type: 'text' as const, text }], stopReason: 'stop' as const, model: 'demo-model', ...extra },
});

const TOPICS = ['SQLite pragmas', 'React effects', 'tree layouts', 'zod schemas', 'WebSockets', 'CSS grids', 'Rust lifetimes', 'shell quoting'];

/** A linear conversation of `messages` messages (user and assistant alternating), with markdown and code. */
export function seedLinear(store: SessionStore, title: string, messages: number): { sessionId: string; entries: Entry[] } {
  const s = store.create({ title });
  const inputs = [];
  for (let i = 0; i < messages; i++) {
    const topic = TOPICS[i % TOPICS.length];
    if (i % 2 === 0) inputs.push(user(`Question ${i + 1}: how do ${topic} work?`));
    else
      inputs.push(
        assistant(
          `Answer ${i + 1} about **${topic}**.\n\n- first, a point\n- then another\n\n\`\`\`ts\nconst answer${i} = (x: number): number => x * ${i};\nconsole.log(answer${i}(2));\n\`\`\`\n\nThat is all for message ${i + 1}.`,
        ),
      );
  }
  const entries: Entry[] = [];
  for (let i = 0; i < inputs.length; i += 500) entries.push(...store.appendMany(s.id, inputs.slice(i, i + 500)));
  return { sessionId: s.id, entries };
}
