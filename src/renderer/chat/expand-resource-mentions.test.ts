import { expect, test } from 'vitest';
import { expandResourceMentions, type ResourceSource } from './expand-resource-mentions.ts';

function source(): ResourceSource & { reads: string[]; lists: number } {
  const s = {
    reads: [] as string[],
    lists: 0,
    list: async () => {
      s.lists++;
      return [{ server: 'docs', uri: 'file:///notes.md', name: 'notes' }];
    },
    read: async (server: string, uri: string) => {
      s.reads.push(`${server} ${uri}`);
      return `[resource <${uri}>]\nhello`;
    },
  };
  return s;
}

test('a listed @server:uri mention gets its text appended once, trailing punctuation aside', async () => {
  const s = source();
  const out = await expandResourceMentions('Summarise @docs:file:///notes.md, then compare with @docs:file:///notes.md.', s);
  expect(out).toBe('Summarise @docs:file:///notes.md, then compare with @docs:file:///notes.md.\n\n[resource <file:///notes.md>]\nhello');
  expect(s.reads).toEqual(['docs file:///notes.md']);
});

test('a message without mentions asks nothing, and a mention of a resource no server lists is left as typed', async () => {
  const s = source();
  expect(await expandResourceMentions('plain text, mail me at bob@example.com:25', s)).toBe('plain text, mail me at bob@example.com:25');
  expect(s.lists).toBe(0);
  expect(await expandResourceMentions('ask @docs:file:///etc/passwd and @bob:hello', s)).toBe('ask @docs:file:///etc/passwd and @bob:hello');
  expect(s.reads).toEqual([]);
});
