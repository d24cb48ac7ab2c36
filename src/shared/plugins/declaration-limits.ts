// Caps on what a plugin may declare, checked by zod in main on arrival (contributions.ts). A declaration
// over a cap fails that plugin's install with a sentence naming the cap; main and other plugins go on.
// The caps are generous for real plugins and small enough that no declaration can cost main much memory
// or time (the tool schemas, for instance, are compiled by ajv on the agent's path).

/** Declarations one plugin's `capabilities()` may return. */
export const MAX_DECLARATIONS = 256;
/** Ids of prompt blocks, status segments, panels, providers, wallets, allowances and panel actions. */
export const MAX_CONTRIBUTION_ID_CHARS = 128;

/** A tool's description, which is sent to the model with every request. */
export const MAX_TOOL_DESCRIPTION_CHARS = 4096;
/** A tool's parameter schema, as JSON text. */
export const MAX_TOOL_SCHEMA_BYTES = 64 * 1024;
/** Nesting of a tool's parameter schema (objects and arrays). */
export const MAX_TOOL_SCHEMA_DEPTH = 32;
/**
 * Objects and arrays in a tool's parameter schema. What ajv's compile costs grows with them (a few hundred
 * properties take it tens to hundreds of milliseconds on a busy machine), and it runs in main.
 */
export const MAX_TOOL_SCHEMA_NODES = 512;

/** What one prompt block renders into the prompt, per render. */
export const MAX_PROMPT_BLOCK_CHARS = 32 * 1024;

/** A status segment's text and tooltip. */
export const MAX_STATUS_TEXT_CHARS = 200;
export const MAX_STATUS_TOOLTIP_CHARS = 2000;

/** A panel's view model (declared or updated), as JSON text, and its parts. */
export const MAX_PANEL_BYTES = 64 * 1024;
export const MAX_PANEL_TITLE_CHARS = 200;
export const MAX_PANEL_SECTIONS = 32;
export const MAX_PANEL_ROWS = 200;
export const MAX_PANEL_TEXT_CHARS = 4000;
export const MAX_PANEL_ACTIONS = 16;

/** A command's path (words from the root of the command tree), each word, its help line and its manual. */
export const MAX_COMMAND_DEPTH = 6;
export const MAX_COMMAND_WORD_CHARS = 32;
export const MAX_COMMAND_HELP_CHARS = 300;
export const MAX_COMMAND_MAN_CHARS = 16 * 1024;

/** A provider's models and presets. */
export const MAX_PROVIDER_MODELS = 1000;
export const MAX_PROVIDER_PRESETS = 32;

/** Short labels: units, currencies, scopes, flavors, wallet providers. */
export const MAX_LABEL_CHARS = 128;

export interface JsonLimits {
  /** Nesting: a scalar is 0 deep, `{}` 1. */
  depth: number;
  /** Length as JSON text. */
  bytes: number;
  /** Objects and arrays, counted wherever they occur (a shared one each time). */
  nodes?: number;
}

/**
 * Which limit a JSON-like value exceeds, or null when it fits. The walk stops as soon as one is exceeded,
 * so a deep, cyclic or shared-reference value (a structured clone can carry both) costs no more than the
 * limits to measure.
 */
export function jsonLimitExceeded(value: unknown, limits: JsonLimits): 'depth' | 'size' | 'nodes' | null {
  const { depth: maxDepth, bytes: maxBytes, nodes: maxNodes = Number.POSITIVE_INFINITY } = limits;
  let nodes = 0;
  // A lower bound of the JSON text's length, counted as the walk goes.
  let bytes = 0;
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop()!;
    if (typeof v === 'string') bytes += v.length + 2;
    else if (typeof v !== 'object' || v === null) bytes += 1;
    else {
      if (depth + 1 > maxDepth) return 'depth';
      if (++nodes > maxNodes) return 'nodes';
      bytes += 2;
      if (Array.isArray(v)) {
        for (const child of v) stack.push({ value: child, depth: depth + 1 });
        bytes += v.length;
      } else {
        for (const [key, child] of Object.entries(v)) {
          bytes += key.length + 4;
          stack.push({ value: child, depth: depth + 1 });
        }
      }
    }
    if (bytes > maxBytes) return 'size';
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return 'size';
  }
  return (text?.length ?? 0) > maxBytes ? 'size' : null;
}
