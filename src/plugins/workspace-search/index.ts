// The bundled workspace search plugin: the `search` and `repo_map` tools over a per-workspace index in its own process.
import { createWorkspaceSearchPlugin } from './workspace-search-plugin.ts';

export { createRepoMapTool, RepoMapArgs } from './repo-map-tool.ts';
export { createSearchTool, SearchArgs } from './search-tool.ts';
export { SearchIndexService } from './search-index-service.ts';
export { indexFileName } from './workspace-indexes.ts';
export default createWorkspaceSearchPlugin();
