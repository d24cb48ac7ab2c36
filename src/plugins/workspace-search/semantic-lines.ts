import { clipLine } from '../workspace-tools/index.ts';
import { TURN_ON_HINT } from './embedding-config.ts';
import type { SearchScope } from './search-index-store.ts';
import type { SemanticIndex } from './semantic-index.ts';

/** What semantic mode answers: result lines and notes, or `fallback` when mode text must answer instead (the notes say why). */
export interface SemanticLines {
  fallback: boolean;
  lines: string[];
  more: boolean;
  notes: string[];
}

const fallback = (why: string): SemanticLines => ({ fallback: true, lines: [], more: false, notes: [`[${why} These results come from mode text.]`] });

/**
 * The `search` tool's semantic mode over a workspace's vectors: each file nearest in meaning first, with its
 * nearest chunks as `path:line: text  (lines a–b, similarity s)`. Where there are no vectors to search (semantic
 * search off, nothing embedded yet, the endpoint failing) mode text answers, and a note says why.
 */
export async function semanticLines(semantic: SemanticIndex | string | null, query: string, scope: SearchScope, limit: number): Promise<SemanticLines> {
  if (semantic === null) return fallback(`Semantic search is off: no embeddings endpoint is set. The user can name one in ${TURN_ON_HINT}.`);
  if (typeof semantic === 'string') return fallback(semantic);
  const status = semantic.status;
  if (status.state === 'unavailable') return fallback(status.message);
  if (semantic.counts().files === 0) {
    if (status.state === 'failed') return fallback(`Semantic search has no vectors yet: ${status.message}`);
    if (status.state !== 'ready') {
      const progress = status.state === 'embedding' ? ` (${status.done} of ${status.total} files)` : '';
      return fallback(`The workspace is still being embedded for semantic search${progress}.`);
    }
  }
  let found;
  try {
    found = await semantic.search(query, scope, limit);
  } catch (error) {
    return fallback(`The query could not be embedded: ${(error as Error).message}`);
  }
  const lines = found.files.flatMap((file) =>
    file.hits.map(
      (hit) => `${hit.path}:${hit.line}: ${clipLine(hit.text.trim())}  (lines ${hit.line}–${hit.endLine}, similarity ${hit.similarity.toFixed(2)})`,
    ),
  );
  const notes: string[] = [];
  const now = semantic.status;
  if (now.state === 'embedding')
    notes.push(`[Embedding is in progress (${now.done} of ${now.total} files): files not embedded yet are missing from these results.]`);
  if (now.state === 'failed') notes.push(`[Embedding stopped: ${now.message} Files added or changed since are missing from these results.]`);
  if (found.more) notes.push(`[Showing the ${found.files.length} nearest files; more are near. Give a path to narrow it.]`);
  return { fallback: false, lines, more: found.more, notes };
}
