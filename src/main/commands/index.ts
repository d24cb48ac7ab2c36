export { CommandTree, UNKNOWN_COMMAND } from './command-tree.ts';
export type { CommandContext, CommandHandler, Feed, FeedItem, PluginCommand } from './command-tree.ts';
