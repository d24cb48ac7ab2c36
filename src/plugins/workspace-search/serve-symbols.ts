import type { MessagePort } from 'node:worker_threads';
import { SymbolRequest } from './symbol-messages.ts';
import { languageOf, SymbolTagger } from './symbol-tagger.ts';

/**
 * Answers SymbolRequests arriving on `port` one at a time, in order, each with a SymbolReply of its id; a grammar is
 * loaded when its first file comes. A request that is not one is dropped. Runs in the symbol worker (symbol-worker.ts).
 */
export function serveSymbols(port: MessagePort): void {
  const tagger = new SymbolTagger({ references: 'linking' });
  let queue = Promise.resolve();
  port.on('message', (raw: unknown) => {
    queue = queue.then(async () => {
      const request = SymbolRequest.safeParse(raw);
      if (!request.success) return;
      const { id, path, text } = request.data;
      const language = languageOf(path);
      if (language !== null) await tagger.load(language);
      port.postMessage({ id, tags: tagger.tags(path, text) });
    });
  });
}
