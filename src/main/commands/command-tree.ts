import { z } from 'zod';
import { type Disposable, toDisposable } from '../../shared/disposable.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import type {
  CommandContext,
  CommandHandler,
  CommandRegistrar,
  CommandResult,
  CommandView,
  Completion,
  Feed,
  FeedItem,
  PluginCommand,
} from '../../shared/commands/index.ts';
import { AmberError, errorMessage } from '../errors.ts';
import builtin from './builtin-commands.json' with { type: 'json' };

export type { CommandContext, CommandHandler, CommandInsert, Feed, FeedItem, PluginCommand } from '../../shared/commands/index.ts';

export interface CommandSpec {
  help: string;
  man?: string;
  /** Id of the action that runs it (see `registerAction`); a node without one prints its man page. */
  action?: string;
  /** Takes free text after its path. */
  argument?: boolean;
  /** Name of a feed whose items complete its argument (models, plugins…). */
  feed?: string;
  children?: Record<string, CommandSpec>;
}

export const CommandSpec: z.ZodType<CommandSpec> = z.lazy(() =>
  z.object({
    help: z.string().min(1),
    man: z.string().optional(),
    action: z.string().optional(),
    argument: z.boolean().optional(),
    feed: z.string().optional(),
    children: z.record(z.string().regex(/^[a-z0-9][a-z0-9_-]*$/), CommandSpec).optional(),
  }),
);

interface Node {
  spec: CommandSpec;
  source: string;
  children: Map<string, Node>;
  handler?: CommandHandler;
  /** Made for a plugin command's path; removed once empty. */
  group?: boolean;
}

export const UNKNOWN_COMMAND = 'unknown command (try /help)';

function build(spec: CommandSpec, source: string): Node {
  const children = new Map<string, Node>();
  for (const [name, child] of Object.entries(spec.children ?? {})) children.set(name, build(child, source));
  return { spec, source, children };
}

/**
 * The command tree: data from one JSON source (the built-in commands), merged at runtime with feeds and
 * plugin commands. Dispatch walks every token that names a documented child; the rest is the argument.
 */
export class CommandTree implements CommandRegistrar {
  readonly #root: Node;
  readonly #actions = new Map<string, CommandHandler>();
  readonly #feeds = new Map<string, Feed>();
  /** Feeds whose item names are paths (`plugin.wallet.warnBelow`): completion offers one step at a time. */
  readonly #separators = new Map<string, string>();
  readonly #changes = new Emitter<void>((e) => console.error('A command tree listener failed', e));
  /** Fired whenever the tree changes (a plugin command or feed came or went). */
  readonly onDidChange: Event<void> = this.#changes.event;

  constructor(spec: unknown = builtin) {
    const parsed = CommandSpec.safeParse(spec);
    if (!parsed.success) throw new AmberError('invalid_input', `The built-in command tree is invalid: ${z.prettifyError(parsed.error)}`);
    this.#root = build(parsed.data, 'builtin');
    this.registerAction('help', (arg) => this.#help(arg));
  }

  registerAction(id: string, handler: CommandHandler): Disposable {
    if (this.#actions.has(id)) throw new AmberError('conflict', `The command action ${id} is already registered.`);
    this.#actions.set(id, handler);
    return toDisposable(() => this.#actions.delete(id));
  }

  /**
   * `separator`: the feed's names are paths joined by it, and completion offers the next step (`plugin.`,
   * then `plugin.wallet.`) rather than every name at once.
   */
  registerFeed(name: string, feed: Feed, options: { separator?: string } = {}): Disposable {
    this.#feeds.set(name, feed);
    if (options.separator) this.#separators.set(name, options.separator);
    this.#changed();
    return toDisposable(() => {
      if (this.#feeds.get(name) === feed) {
        this.#feeds.delete(name);
        this.#separators.delete(name);
      }
      this.#changed();
    });
  }

  /**
   * Adds a plugin's command; a documented built-in node is never replaced. Missing words on its path become
   * group nodes (no action: they print their man page), removed again with the last command under them.
   */
  registerCommand(command: PluginCommand): Disposable {
    if (command.path.length === 0) throw new AmberError('invalid_input', 'A command needs a path of at least one word.');
    const name = command.path.at(-1)!;
    let parent = this.#root;
    const trail: { parent: Node; name: string; node: Node }[] = [];
    for (const [i, token] of command.path.slice(0, -1).entries()) {
      let next = parent.children.get(token);
      if (!next) {
        next = { spec: { help: `Commands under /${command.path.slice(0, i + 1).join(' ')}` }, source: command.source, children: new Map(), group: true };
      }
      trail.push({ parent, name: token, node: next });
      parent = next;
    }
    if (parent.children.has(name)) throw new AmberError('conflict', `The command /${command.path.join(' ')} already exists.`);
    for (const step of trail) step.parent.children.set(step.name, step.node);
    const node: Node = {
      spec: { help: command.help, man: command.man, argument: command.argument ?? true, ...(command.feed ? { feed: command.feed } : {}) },
      source: command.source,
      children: new Map(),
      handler: command.handler,
    };
    parent.children.set(name, node);
    this.#changed();
    return toDisposable(() => {
      if (parent.children.get(name) === node) parent.children.delete(name);
      // Group nodes go once nothing hangs under them any more.
      for (const step of trail.toReversed()) {
        if (step.node.group && step.node.children.size === 0 && step.parent.children.get(step.name) === step.node) step.parent.children.delete(step.name);
      }
      this.#changed();
    });
  }

  /** Every node, depth first, for the palette; feed items are listed under the node they complete. */
  list(): CommandView[] {
    const out: CommandView[] = [];
    const visit = (node: Node, path: string[]) => {
      for (const [name, child] of node.children) {
        const childPath = [...path, name];
        out.push({
          path: childPath,
          help: child.spec.help,
          source: child.source,
          runnable: Boolean(child.handler || (child.spec.action && this.#actions.has(child.spec.action))),
          takesArgument: Boolean(child.spec.argument),
        });
        visit(child, childPath);
      }
      if (node.spec.feed) {
        for (const item of this.#feedItems(node.spec.feed)) {
          if (node.children.has(item.name)) continue; // documented help wins over a feed
          out.push({ path: [...path, item.name], help: item.help, source: `feed:${node.spec.feed}`, runnable: true, takesArgument: item.values !== undefined });
        }
      }
    };
    visit(this.#root, []);
    return out;
  }

  /** Completions for what the user has typed so far. */
  complete(input: string): Completion[] {
    if (!input.startsWith('/')) return [];
    const body = input.slice(1);
    const tokens = body.split(/\s+/);
    const partial = tokens.pop() ?? '';
    let node = this.#root;
    let valuesOf: FeedItem | undefined;
    for (const [i, token] of tokens.entries()) {
      const next = node.children.get(token);
      if (next) {
        node = next;
        continue;
      }
      // The last whole word may be a feed item that takes a value of its own: complete that value.
      valuesOf = i === tokens.length - 1 && node.spec.feed ? this.#feedItems(node.spec.feed).find((item) => item.name === token && item.values) : undefined;
      if (!valuesOf) return [];
    }
    const prefix = `/${tokens.map((t) => `${t} `).join('')}`;
    const options = new Map<string, string>();
    // Steps of a path feed, completed without the space that would end the word.
    const steps = new Set<string>();
    if (valuesOf) for (const value of valuesOf.values ?? []) options.set(value.name, value.help);
    else {
      for (const [name, child] of node.children) options.set(name, child.spec.help);
      // Feed items complete the argument; documented children keep their own help.
      const feed = node.spec.feed;
      const separator = feed ? this.#separators.get(feed) : undefined;
      for (const item of feed ? this.#feedItems(feed) : []) {
        const cut = separator && item.name.startsWith(partial) ? item.name.indexOf(separator, partial.length) : -1;
        const name = cut >= 0 ? item.name.slice(0, cut + separator!.length) : item.name;
        if (cut >= 0) steps.add(name);
        // A step's help names it without its separator: "Settings under plugin.wallet…", not "plugin.wallet.…".
        if (!options.has(name)) options.set(name, cut >= 0 ? `Settings under ${name.slice(0, -separator!.length)}…` : item.help);
      }
    }
    return [...options]
      .filter(([name]) => name.startsWith(partial))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, help]) => ({ insert: `${prefix}${name}${steps.has(name) ? '' : ' '}`, label: name, help }));
  }

  /** Runs a command line. Never throws: errors come back as a result for the status line. */
  async run(input: string, context: CommandContext): Promise<CommandResult> {
    const line = input.trim().replace(/^\//, '');
    const { node, path, argument } = this.#walk(line);
    if (node === this.#root) {
      return line === '' ? { kind: 'help', text: this.#help('') } : { kind: 'error', text: UNKNOWN_COMMAND };
    }
    const handler = node.handler ?? (node.spec.action ? this.#actions.get(node.spec.action) : undefined);
    if (!handler) {
      if (argument) return { kind: 'error', text: UNKNOWN_COMMAND };
      return { kind: 'help', text: this.#manPage(node, path) };
    }
    if (argument && !node.spec.argument) return { kind: 'error', text: `/${path.join(' ')} takes no argument (try /help ${path.join(' ')})` };
    try {
      const text = await handler(argument, context);
      if (typeof text === 'object') return { kind: 'insert', text: text.insert };
      return { kind: 'ok', text: text ?? `/${path.join(' ')}: done` };
    } catch (e) {
      return { kind: 'error', text: `/${path.join(' ')}: ${errorMessage(e)}` };
    }
  }

  #walk(line: string): { node: Node; path: string[]; argument: string } {
    let node = this.#root;
    const path: string[] = [];
    let rest = line;
    for (;;) {
      const match = /^(\S+)\s*/.exec(rest);
      if (!match) break;
      const next = node.children.get(match[1]!);
      if (!next) break;
      node = next;
      path.push(match[1]!);
      rest = rest.slice(match[0].length);
    }
    return { node, path, argument: rest.trim() };
  }

  #help(argument: string): string {
    if (argument) {
      const { node, path, argument: rest } = this.#walk(argument.replace(/^\//, ''));
      if (node === this.#root || rest) return UNKNOWN_COMMAND;
      return this.#manPage(node, path);
    }
    return this.#manPage(this.#root, []);
  }

  #manPage(node: Node, path: string[]): string {
    const lines = [node.spec.man ?? `/${path.join(' ')} — ${node.spec.help}`];
    if (node.children.size) {
      lines.push('', 'Commands:');
      for (const [name, child] of node.children) lines.push(`  /${[...path, name].join(' ')} — ${child.spec.help}`);
    }
    return lines.join('\n');
  }

  #feedItems(name: string): FeedItem[] {
    try {
      return this.#feeds.get(name)?.() ?? [];
    } catch {
      return []; // a failing feed offers nothing; it never breaks completion
    }
  }

  #changed(): void {
    this.#changes.fire();
  }
}
