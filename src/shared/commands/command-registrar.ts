import type { Disposable } from '../disposable.ts';

// What a feature needs to add commands and completion feeds to main's command tree, without importing the
// tree itself: the MCP service registers its prompts through this, and the command tree implements it.

export interface CommandContext {
  sessionId: string | null;
}

/** Text for the message box rather than the status line: the composer puts it there for the user to send. */
export interface CommandInsert {
  insert: string;
}

/** Returns text for the status line (or to insert); throws an error whose message a user can act on. */
export type CommandHandler = (argument: string, context: CommandContext) => string | void | CommandInsert | Promise<string | void | CommandInsert>;

export interface FeedItem {
  name: string;
  help: string;
  /** What may follow the item, completed after it (a setting's enum values). */
  values?: readonly FeedItem[];
}
export type Feed = () => FeedItem[];

export interface PluginCommand {
  path: string[];
  help: string;
  man?: string;
  argument?: boolean;
  /** A feed completing its argument; its items' `values` complete the word after them. */
  feed?: string;
  source: string;
  handler: CommandHandler;
}

export interface CommandRegistrar {
  /**
   * `separator`: the feed's names are paths joined by it, and completion offers the next step (`plugin.`,
   * then `plugin.wallet.`) rather than every name at once.
   */
  registerFeed(name: string, feed: Feed, options?: { separator?: string }): Disposable;
  /** Adds a command; a documented built-in node is never replaced (a clash throws). */
  registerCommand(command: PluginCommand): Disposable;
}
