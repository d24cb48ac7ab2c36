import type { McpResourceView } from '../../shared/api/index.ts';

/** `@server:uri` in a message, the way the attach menu names a resource. */
const MENTION = /(?<![\w@])@([a-zA-Z0-9_-]{1,64}):(\S+)/g;

export interface ResourceSource {
  /** The resources the connected MCP servers list; only these are read. */
  list(): Promise<McpResourceView[]>;
  /** A resource's text, as it goes into a message. */
  read(server: string, uri: string): Promise<string>;
}

/**
 * The message with the text of every `@server:uri` it names appended, each resource once. Only resources a
 * server lists are read, so `@bob:hello` in plain prose stays as typed; without a mention nothing is asked.
 */
export async function expandResourceMentions(message: string, source: ResourceSource): Promise<string> {
  const mentions = [...message.matchAll(MENTION)].map((m) => ({ server: m[1]!, uri: m[2]!.replace(/[.,;:!?)\]]+$/, '') }));
  if (mentions.length === 0) return message;
  const listed = await source.list();
  const seen = new Set<string>();
  const texts: string[] = [];
  for (const { server, uri } of mentions) {
    const key = `${server}\0${uri}`;
    if (seen.has(key) || !listed.some((r) => r.server === server && r.uri === uri)) continue;
    seen.add(key);
    texts.push(await source.read(server, uri));
  }
  return texts.length ? `${message}\n\n${texts.join('\n\n')}` : message;
}
