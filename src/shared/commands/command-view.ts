import { z } from 'zod';

/** A node of the command tree as the palette and completion see it. */
export const CommandView = z.object({
  /** Tokens from the root, e.g. ['set', 'policy']. */
  path: z.array(z.string()),
  help: z.string(),
  /** Where the node came from: the built-in tree, a feed (models, plugins…), or a plugin's command. */
  source: z.string(),
  runnable: z.boolean(),
  /** Takes free-form text after its path (a label, a plugin id…). */
  takesArgument: z.boolean(),
});
export type CommandView = z.infer<typeof CommandView>;

/**
 * What running a command produced: text for the status line / transcript, an error sentence, or (`insert`)
 * text the composer puts into the message box for the user to send (an MCP prompt).
 */
export const CommandResult = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ok'), text: z.string() }),
  z.object({ kind: z.literal('insert'), text: z.string() }),
  z.object({ kind: z.literal('help'), text: z.string() }),
  z.object({ kind: z.literal('error'), text: z.string() }),
]);
export type CommandResult = z.infer<typeof CommandResult>;

export const Completion = z.object({ insert: z.string(), label: z.string(), help: z.string() });
export type Completion = z.infer<typeof Completion>;
