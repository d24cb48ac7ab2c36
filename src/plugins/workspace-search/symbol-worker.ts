// The symbol worker's script: a worker thread the index starts (see SymbolThread) to run the grammars off its own
// thread. Built as an entry of its own beside the plugin's index.js (electron.vite.config.ts).
import { isMainThread, parentPort } from 'node:worker_threads';
import { serveSymbols } from './serve-symbols.ts';

if (!isMainThread && parentPort) serveSymbols(parentPort);
