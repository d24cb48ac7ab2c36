// The bundled workspace search plugin: the `search` and `repo_map` tools over a per-workspace index in its own process.
import { createWorkspaceSearchPlugin } from './workspace-search-plugin.ts';

export { createRepoMapTool, RepoMapArgs } from './repo-map-tool.ts';
export { createSearchTool, SearchArgs } from './search-tool.ts';
export { SearchIndexService } from './search-index-service.ts';
export { indexFileName } from './workspace-indexes.ts';
export { codeChunks } from './code-chunks.ts';
export { EmbeddingClient, EmbeddingFailure } from './embedding-client.ts';
export { type EmbeddingConfig, embeddingModelKey, readEmbeddingConfig } from './embedding-config.ts';
export { SemanticIndex, type SemanticStatus } from './semantic-index.ts';
export { semanticLines } from './semantic-lines.ts';
export default createWorkspaceSearchPlugin();
