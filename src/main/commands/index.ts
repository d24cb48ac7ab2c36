export { CommandTree, UNKNOWN_COMMAND } from './command-tree.ts';
export type { CommandContext, CommandHandler, CommandInsert, Feed, FeedItem, PluginCommand } from './command-tree.ts';
export { createAppCommands } from './app-commands.ts';
export type { AppCommandContext, AppCommandHooks, AppCommands } from './app-commands.ts';
