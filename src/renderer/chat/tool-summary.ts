import type { ToolCallView } from './transcript-model.ts';

/** What a tool card's header says about a call: a readable line, and for edits the change size. */
export interface ToolSummary {
  /** The command line, the file, `server · tool`… — never raw JSON. */
  text: string;
  /** Lines added and removed, for a call that changes a file. */
  change?: { added: number; removed: number };
}

const lineCount = (text: unknown): number => (typeof text === 'string' && text.length > 0 ? text.replace(/\n$/, '').split('\n').length : 0);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** Arguments still streaming in: the JSON so far, read as far as it is whole. */
function argsOf(tool: Pick<ToolCallView, 'args' | 'argsText'>): Record<string, unknown> {
  if (typeof tool.args === 'object' && tool.args !== null) return tool.args as Record<string, unknown>;
  if (tool.argsText) {
    try {
      const parsed: unknown = JSON.parse(tool.argsText);
      if (typeof parsed === 'object' && parsed !== null) return parsed as Record<string, unknown>;
    } catch {
      // Not whole yet: a string value may still be read below.
    }
    const command = /"(command|path)"\s*:\s*"((?:[^"\\]|\\.)*)/.exec(tool.argsText);
    if (command) return { [command[1]!]: command[2]!.replace(/\\n/g, '\n').replace(/\\(.)/g, '$1') };
  }
  return {};
}

/**
 * The header line of a tool card: bash shows its command line; edit and write the file and how many lines
 * change; read, ls, find, grep and search what they look at; repo_map what it leans toward; an MCP tool (`mcp__server__tool`) its server and tool;
 * any other tool its first few text arguments.
 */
export function toolSummary(tool: Pick<ToolCallView, 'name' | 'args' | 'argsText'>): ToolSummary {
  const args = argsOf(tool);
  const path = str(args['path']) ?? str(args['file_path']) ?? str(args['file']);
  switch (tool.name) {
    case 'bash':
    case 'shell':
      return { text: (str(args['command']) ?? '').replace(/\s*\n\s*/g, ' ⏎ ') };
    case 'edit':
      return { text: path ?? '', change: { added: lineCount(args['newText']), removed: lineCount(args['oldText']) } };
    case 'write':
    case 'write_file':
      return { text: path ?? '', change: { added: lineCount(args['content']), removed: 0 } };
    case 'read':
    case 'ls':
      return { text: path ?? '' };
    case 'grep':
    case 'find':
      return { text: [str(args['pattern']), path].filter(Boolean).join(' in ') };
    case 'search': {
      const query = str(args['query']);
      const mode = str(args['mode']);
      return { text: [query && `${query}${mode ? ` (${mode})` : ''}`, path].filter(Boolean).join(' in ') };
    }
    case 'repo_map': {
      const focus = Array.isArray(args['focus']) ? args['focus'].filter((f): f is string => typeof f === 'string').join(', ') : '';
      return { text: [focus ? `toward ${focus}` : 'the most used definitions', path].filter(Boolean).join(' in ') };
    }
    default:
  }
  const mcp = /^mcp__(.+?)__(.+)$/.exec(tool.name);
  const values = Object.values(args)
    .filter((v): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v))
    .map((v) => String(v).replace(/\s+/g, ' '))
    .slice(0, 3)
    .join(' · ');
  if (mcp) return { text: `${mcp[1]} · ${mcp[2]}${values ? ` — ${values}` : ''}` };
  return { text: values };
}

/** The exit code a finished shell call reports in its details, or null. `details` is unchecked plugin data. */
export function exitCodeOf(details: unknown): number | null {
  if (typeof details !== 'object' || details === null) return null;
  const code = (details as { exitCode?: unknown }).exitCode;
  return typeof code === 'number' && Number.isInteger(code) ? code : null;
}
