import type { MessagePort } from 'node:worker_threads';
import { identifierPartsOf } from './identifier-words.ts';
import { readIndexable } from './read-indexable.ts';
import { type PreparedFile, SymbolRequest } from './symbol-messages.ts';
import { languageOf, type SymbolTag, SymbolTagger } from './symbol-tagger.ts';

/**
 * Answers SymbolRequests arriving on `port` one at a time, in order, each with a SymbolReply of its id; a grammar is
 * loaded when its first file comes. A `file` request is read here (as the index reads it), decoded and split into
 * its identifiers' parts, so that this garbage is the worker's and goes when it ends; its bytes are handed over
 * (transferred), not copied. A request that is not one is dropped. Runs in the symbol worker (symbol-worker.ts).
 */
export function serveSymbols(port: MessagePort): void {
  const tagger = new SymbolTagger({ references: 'linking' });
  const tags = async (path: string, text: string): Promise<SymbolTag[]> => {
    const language = languageOf(path);
    if (language === null) return [];
    await tagger.load(language);
    return tagger.tags(path, text);
  };
  let queue = Promise.resolve();
  port.on('message', (raw: unknown) => {
    queue = queue.then(async () => {
      const request = SymbolRequest.safeParse(raw);
      if (!request.success) return;
      const { id, path } = request.data;
      if ('text' in request.data) return void port.postMessage({ id, tags: await tags(path, request.data.text) });
      const file = await readIndexable(request.data.file);
      if (!file) return void port.postMessage({ id, tags: [], read: null });
      const text = file.bytes?.toString('utf8') ?? '';
      const read: PreparedFile = { size: file.size, mtimeMs: file.mtimeMs, bytes: file.bytes, parts: identifierPartsOf(text).join(' ') };
      // A buffer that owns its memory whole is handed over; a slice of a shared one is copied.
      const own = file.bytes && file.bytes.byteOffset === 0 && file.bytes.byteLength === file.bytes.buffer.byteLength;
      port.postMessage({ id, tags: file.bytes ? await tags(path, text) : [], read }, own ? [file.bytes!.buffer as ArrayBuffer] : []);
    });
  });
}
