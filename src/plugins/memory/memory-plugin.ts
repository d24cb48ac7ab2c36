import { join } from 'node:path';
import { z } from 'zod';
import { MemoriesExtracted } from '../../shared/context/index.ts';
import { MAX_BLOCK_SOURCE_LABEL_CHARS, MAX_BLOCK_SOURCES, MEMORY_EXTRACTED_TOPIC } from '../../shared/plugins/index.ts';
import type { PromptBlockContext, PromptBlockRender } from '../../shared/plugin-wire/index.ts';
import type { DefinedPlugin, PluginCommandResult, PluginContext, ToolCallOptions, ToolOutput } from '../../workers/sdk/index.ts';
import { definePlugin } from '../../workers/sdk/index.ts';
import { MEMORY_HELP, MEMORY_MAN, parseMemoryCommand } from './memory-command.ts';
import { memoriesToMarkdown, parseMemoryMarkdown } from './memory-markdown.ts';
import { GLOBAL_SCOPE, MAX_MEMORY_CHARS, MemoryKind, type MemoryRecord, scopeLabel } from './memory-record.ts';
import { MemoryStore, type WriteOutcome } from './memory-store.ts';
import { contentHash } from './memory-text.ts';
import { type MemoryMode, memoryPanel, memorySegment, type MemoryViewInput, modeText, PANEL_MEMORIES } from './memory-views.ts';
import { WorkspaceFile } from './workspace-file.ts';

export const MEMORY_FILE_NAME = 'memory.sqlite';
export const REMEMBER_TOOL = 'remember';
export const SEARCH_TOOL = 'search_memories';
export const RECALL_BLOCK_ID = 'memory.recall';
/** Emitted after each recall: `{ sessionId, ids }`, the memories the request carries. */
export const MEMORY_RECALLED_TOPIC = 'memory.recalled';

export const RememberArgs = z.object({
  text: z.string().trim().min(1, 'text is empty').max(MAX_MEMORY_CHARS, `text is longer than ${MAX_MEMORY_CHARS} characters: keep one short fact`),
  kind: MemoryKind.default('user'),
  scope: z.enum(['global', 'workspace']).default('global'),
});

export const SearchArgs = z.object({ query: z.string().trim().min(1, 'query is empty').max(1000, 'query is longer than 1000 characters') });

export interface MemoryPluginSeams {
  /** Epoch milliseconds. */
  now?: () => number;
}

/** Workspaces of the conversations seen lately, for memories that come without one. */
const KNOWN_SESSIONS = 200;

/**
 * Memory the user controls: what the agent is asked to remember (the `remember` tool, /memory add) or what
 * compaction extracts (`memory.extracted`) is kept in the plugin's own SQLite file, as a suggestion waiting
 * in the Memory panel's tray (mode suggest, the default), at once (auto) or not at all (off). Before each
 * request the pinned and the most relevant memories are added as a tail prompt block. Child agents read
 * what their parent's requests carry but never write.
 */
export function createMemoryPlugin(seams: MemoryPluginSeams = {}): DefinedPlugin {
  const now = seams.now ?? Date.now;
  let ctx: PluginContext | null = null;
  let store: MemoryStore | null = null;
  let lastDeleted: MemoryRecord | null = null;
  let confirmingForgetAll = false;
  const notes: string[] = [];
  const sessionWorkspaces = new Map<string, string>();
  /** The workspace of the conversation seen last: where /memory add --workspace, export and import act. */
  let currentWorkspace = '';

  const opened = (): MemoryStore => {
    if (!store) throw new Error('The memory store is not open.');
    return store;
  };

  const mode = async (): Promise<MemoryMode> => {
    const value = await ctx?.config('mode');
    return value === 'auto' || value === 'off' ? value : 'suggest';
  };
  const paused = () => opened().getMeta('paused') === '1';

  const seen = (sessionId: string | null | undefined, workspace: string | undefined) => {
    if (!workspace) return;
    currentWorkspace = workspace;
    if (!sessionId) return;
    sessionWorkspaces.delete(sessionId);
    sessionWorkspaces.set(sessionId, workspace);
    if (sessionWorkspaces.size > KNOWN_SESSIONS) sessionWorkspaces.delete(sessionWorkspaces.keys().next().value!);
  };

  const viewInput = async (): Promise<MemoryViewInput> => {
    const s = opened();
    return {
      mode: await mode(),
      paused: paused(),
      activeCount: s.count('active'),
      suggestedCount: s.count('suggested'),
      suggested: s.list(['suggested'], { limit: PANEL_MEMORIES }),
      active: s.list(['active'], { limit: PANEL_MEMORIES }),
      lastDeleted,
      confirmingForgetAll,
      notes,
    };
  };

  /** Redraws the panel and the status segment. Must not throw: it runs after every change. */
  const refreshViews = async () => {
    const c = ctx;
    if (!c || !store) return;
    try {
      const input = await viewInput();
      if (ctx !== c) return;
      c.updatePanel(memoryPanel(input));
      c.updateStatus(memorySegment(input));
    } catch (e) {
      c.log.error(`The memory views could not be updated: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  /** Writes as the mode says: null when memory is off. A user's own write (/memory add, import) is always active. */
  const keep = async (write: Omit<Parameters<MemoryStore['write']>[0], 'status'>, byUser: boolean): Promise<WriteOutcome | null> => {
    const m = await mode();
    if (m === 'off' && !byUser) return null;
    const outcome = opened().write({ ...write, status: byUser || m === 'auto' ? 'active' : 'suggested' });
    lastDeleted = null;
    return outcome;
  };

  const remember = async (raw: Record<string, unknown>, options: ToolCallOptions): Promise<ToolOutput> => {
    if (options.subagent) return fail('A sub-agent cannot write memories. Tell the conversation’s agent what is worth remembering in your answer instead.');
    const parsed = RememberArgs.safeParse(raw);
    if (!parsed.success)
      return fail(`Nothing was remembered: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')}.`);
    seen(options.sessionId, options.workspace);
    if ((await mode()) === 'off') return fail('Memory is off (memory.mode off): nothing was kept. The user can turn it on with /set memory.mode suggest.');
    const { text, kind, scope } = parsed.data;
    if (scope === 'workspace' && !options.workspace) return fail('This call has no workspace folder: remember it with scope global.');
    const outcome = (await keep(
      { text, kind, scope: scope === 'workspace' ? options.workspace! : GLOBAL_SCOPE, sourceSession: options.sessionId ?? null },
      false,
    ))!;
    await refreshViews();
    return { content: [{ type: 'text', text: describeWrite(outcome) }], isError: false };
  };

  /** Read-only: a child agent may search what its parent's requests are given. */
  const searchMemories = async (raw: Record<string, unknown>, options: ToolCallOptions): Promise<ToolOutput> => {
    const parsed = SearchArgs.safeParse(raw);
    if (!parsed.success) return fail(`No search was made: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')}.`);
    if ((await mode()) === 'off' || paused()) return fail('Memory recall is off or paused: there is nothing to search.');
    const workspace = options.workspace ?? '';
    const found = opened()
      .search(parsed.data.query, 40)
      .filter((m) => m.status === 'active' && (m.scope === GLOBAL_SCOPE || m.scope === workspace))
      .slice(0, 10);
    const text = found.length === 0 ? 'No memory matches.' : found.map((m) => `- ${m.text}`).join('\n');
    return { content: [{ type: 'text', text }], isError: false };
  };

  const onExtracted = (payload: unknown) => {
    const parsed = MemoriesExtracted.safeParse(payload);
    if (!parsed.success) {
      ctx?.log.warn(`A memory.extracted event was not understood and was dropped: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
      return;
    }
    void (async () => {
      const event = parsed.data;
      const workspace = event.workspace ?? sessionWorkspaces.get(event.sessionId);
      let kept = 0;
      for (const m of event.memories) {
        // Extracted text is capped, not refused: the model's wording runs long.
        const text = m.text.trim().slice(0, MAX_MEMORY_CHARS);
        if (text === '') continue;
        const scope = m.kind === 'project' && workspace ? workspace : GLOBAL_SCOPE;
        try {
          if (await keep({ text, kind: m.kind, scope, sourceSession: event.sessionId, sourceEntry: event.entryId }, false)) kept++;
        } catch (e) {
          ctx?.log.warn(`An extracted memory was not kept: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      if (kept > 0) await refreshViews();
    })().catch((e: unknown) => ctx?.log.error(`Extracted memories were not kept: ${e instanceof Error ? e.message : String(e)}`));
  };

  // The recalled memories are the block's sources: the reply records them and the window shows them as chips.
  const recallBlock = async (context: PromptBlockContext): Promise<PromptBlockRender> => {
    seen(context.sessionId, context.workspace);
    if ((await mode()) === 'off' || paused()) return '';
    const recalled = opened().recall({ prompt: context.prompt ?? '', workspace: context.workspace });
    if (recalled.length === 0) return '';
    ctx?.events.emit(MEMORY_RECALLED_TOPIC, { sessionId: context.sessionId, ids: recalled.map((m) => m.id) });
    const text = [
      'Memories the user keeps from earlier conversations (use them where they apply; what the user says now wins):',
      ...recalled.map((m) => `- ${m.text}`),
    ].join('\n');
    return { text, sources: recalled.slice(0, MAX_BLOCK_SOURCES).map((m) => ({ id: String(m.id), label: clipLabel(m.text) })) };
  };

  const act = async (verb: string, id: number): Promise<string> => {
    const s = opened();
    confirmingForgetAll = false;
    switch (verb) {
      case 'accept':
        return `Kept #${id}: ${s.accept(id).text}`;
      case 'dismiss':
        s.dismiss(id);
        return `Dismissed #${id}; it will not be suggested again.`;
      case 'pin':
      case 'unpin':
        s.pin(id, verb === 'pin');
        return verb === 'pin' ? `Pinned #${id}: it is recalled before every run.` : `Unpinned #${id}.`;
      case 'forget':
      case 'delete':
        lastDeleted = s.remove(id);
        return `Deleted #${id}. /memory restore ${id} brings it back.`;
      case 'restore':
      case 'undo':
        s.restore(id);
        lastDeleted = null;
        return `Restored #${id}.`;
      default:
        throw new Error(`Unknown memory action '${verb}'.`);
    }
  };

  const runCommand = async (args: string[]): Promise<PluginCommandResult> => {
    const command = parseMemoryCommand(args);
    if ('error' in command) return { output: command.error, isError: true };
    const s = opened();
    try {
      switch (command.action) {
        case 'help':
          return ok(MEMORY_MAN);
        case 'show': {
          const input = await viewInput();
          const lines = [
            `${input.activeCount} memories kept; ${input.suggestedCount} waiting for review. Mode: ${modeText(input.mode)}${input.paused ? '; recall is paused' : ''}.`,
          ];
          for (const m of s.list(['suggested'])) lines.push(`  to review #${m.id}: ${m.text}`);
          return ok(lines.join('\n'));
        }
        case 'list': {
          const all = s.list(['active']);
          return ok(all.length === 0 ? 'No memories are kept.' : all.map(line).join('\n'));
        }
        case 'search': {
          const found = s.search(command.words);
          return ok(found.length === 0 ? 'No memory matches.' : found.map(line).join('\n'));
        }
        case 'mode':
          return ok(`Memory mode: ${modeText(await mode())}. Change it with /set memory.mode suggest, auto or off.`);
        case 'pause':
        case 'resume':
          s.setMeta('paused', command.action === 'pause' ? '1' : null);
          await refreshViews();
          return ok(command.action === 'pause' ? 'Recall is paused: no memory is added to requests until /memory resume.' : 'Recall is back on.');
        case 'add': {
          if (command.workspace && !currentWorkspace)
            return { output: 'No workspace is known yet: open a conversation first, or leave out --workspace.', isError: true };
          const outcome = (await keep({ text: command.text, kind: command.kind, scope: command.workspace ? currentWorkspace : GLOBAL_SCOPE }, true))!;
          await refreshViews();
          return ok(describeWrite(outcome));
        }
        case 'edit': {
          const old = s.get(command.id);
          if (!old || (old.status !== 'active' && old.status !== 'suggested'))
            return { output: `There is no memory ${command.id} to edit (/memory list shows them).`, isError: true };
          if (contentHash(command.text) === old.hash) return ok(`Memory #${old.id} already says that.`);
          // The new words replace the old memory, which stays in history; a pin carries over.
          const outcome = s.batch(() => {
            const written = s.write({ text: command.text, kind: old.kind, scope: old.scope, status: 'active', supersedes: old.id });
            if (written.memory.id !== old.id && old.pinned) s.pin(written.memory.id, true);
            return written;
          });
          await refreshViews();
          return ok(`Memory #${old.id} is now #${outcome.memory.id}: ${outcome.memory.text}`);
        }
        case 'detail': {
          const m = s.get(command.id);
          if (!m) return { output: `There is no memory ${command.id}.`, isError: true };
          return ok(describeMemory(m));
        }
        case 'forget-all': {
          const n = s.forgetAll();
          lastDeleted = null;
          confirmingForgetAll = false;
          await refreshViews();
          return ok(`Forgot ${n} memories, history included.`);
        }
        case 'export': {
          const file = WorkspaceFile.target(currentWorkspace || (ctx?.workspace ?? ''), command.file ?? 'memories.md');
          const memories = s.list(['active']);
          file.write(memoriesToMarkdown(memories));
          return ok(`Wrote ${memories.length} memories to ${file.path}.`);
        }
        case 'import': {
          const file = WorkspaceFile.existing(currentWorkspace || (ctx?.workspace ?? ''), command.file);
          const items = parseMemoryMarkdown(file.read());
          let added = 0;
          s.batch(() => {
            for (const m of items) {
              const outcome = s.write({ text: m.text, kind: m.kind, scope: m.scope, status: 'active' });
              if (m.pinned) s.pin(outcome.memory.id, true);
              if (outcome.outcome === 'added') added++;
            }
          });
          await refreshViews();
          return ok(`Imported ${items.length} memories from ${file.path}: ${added} new, ${items.length - added} already kept.`);
        }
        default: {
          const output = await act(command.action, command.id);
          await refreshViews();
          return ok(output);
        }
      }
    } catch (e) {
      return { output: e instanceof Error ? e.message : String(e), isError: true };
    }
  };

  const onPanelAction = async (actionId: string) => {
    const [verb = '', rawId] = actionId.split('.', 2);
    const s = opened();
    if (verb === 'pause' || verb === 'resume') s.setMeta('paused', verb === 'pause' ? '1' : null);
    else if (actionId === 'forget-all') confirmingForgetAll = true;
    else if (actionId === 'forget-all.cancel') confirmingForgetAll = false;
    else if (actionId === 'forget-all.confirm') {
      s.forgetAll();
      lastDeleted = null;
      confirmingForgetAll = false;
    } else {
      const id = Number(rawId);
      if (!Number.isSafeInteger(id)) return;
      try {
        await act(verb, id);
      } catch (e) {
        ctx?.log.warn(e instanceof Error ? e.message : String(e));
      }
    }
    await refreshViews();
  };

  return definePlugin({
    manifest: { id: 'memory', version: '1.0.0' },

    async initialize(context) {
      ctx = context;
      notes.length = 0;
      lastDeleted = null;
      confirmingForgetAll = false;
      const dataDir = await context.config<string>('dataDir');
      if (typeof dataDir === 'string' && dataDir !== '') store = MemoryStore.open(join(dataDir, MEMORY_FILE_NAME), now);
      else {
        store = MemoryStore.open(':memory:', now);
        notes.push('Memories are not saved: no data folder is set, so they are gone when the app closes.');
      }
      context.events.on(MEMORY_EXTRACTED_TOPIC, onExtracted);
      return true;
    },

    async shutdown() {
      store?.close();
      store = null;
      ctx = null;
    },

    async capabilities() {
      const input = await viewInput();
      return [
        {
          kind: 'tool',
          name: REMEMBER_TOOL,
          description:
            'Remember one short fact for later conversations: a preference of the user, a fact of this project, or how something is done here. Use it when the user asks you to remember something, or for a durable fact that will matter again — not for what matters only now. Depending on the user’s setting it is kept at once or waits for their approval.',
          parameters: {
            type: 'object',
            properties: {
              text: { type: 'string', description: `The fact, one or two sentences (at most ${MAX_MEMORY_CHARS} characters), understandable on its own.` },
              kind: {
                type: 'string',
                enum: ['user', 'project', 'procedure'],
                description: 'user: about the user; project: about this codebase; procedure: how to do something.',
              },
              scope: {
                type: 'string',
                enum: ['global', 'workspace'],
                description: 'global (default): every conversation; workspace: only conversations in this workspace folder.',
              },
            },
            required: ['text'],
          },
          // It touches no file of the workspace: what it keeps waits for the user in suggest mode.
          readOnly: true,
          execute: remember,
        },
        {
          kind: 'tool',
          name: SEARCH_TOOL,
          description:
            'Search the memories the user keeps from earlier conversations (preferences, project facts, procedures) for words. The most relevant ones are already added to each request; use this for more.',
          parameters: {
            type: 'object',
            properties: { query: { type: 'string', description: 'Words to look for.' } },
            required: ['query'],
          },
          readOnly: true,
          execute: searchMemories,
        },
        // Recalled once a run (again after a new user message): the run's later requests carry the same memories.
        { kind: 'promptBlock', id: RECALL_BLOCK_ID, position: 'tail', priority: 0, cache: 'run', render: recallBlock },
        { kind: 'statusSegment', ...memorySegment(input) },
        { kind: 'panel', ...memoryPanel(input), onAction: onPanelAction },
        { kind: 'command', path: ['memory'], help: MEMORY_HELP, man: MEMORY_MAN, run: runCommand },
      ];
    },
  });
}

function ok(output: string): PluginCommandResult {
  return { output, isError: false };
}

function fail(text: string): ToolOutput {
  return { content: [{ type: 'text', text }], isError: true };
}

/** A chip's label: the memory's text on one line, at most MAX_BLOCK_SOURCE_LABEL_CHARS characters. */
function clipLabel(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_BLOCK_SOURCE_LABEL_CHARS ? flat : `${flat.slice(0, MAX_BLOCK_SOURCE_LABEL_CHARS - 1)}…`;
}

function line(m: MemoryRecord): string {
  return `#${m.id} ${m.pinned ? 'pinned ' : ''}[${m.kind}, ${scopeLabel(m.scope)}${m.status === 'active' ? '' : `, ${m.status}`}] ${m.text}`;
}

function when(ms: number | null): string {
  return ms === null ? 'never' : new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
}

function describeMemory(m: MemoryRecord): string {
  return [
    line(m),
    `status ${m.status}${m.pinned ? ', pinned' : ''}; noted ${m.evidence} time${m.evidence === 1 ? '' : 's'}; first ${when(m.firstSeen)}, last ${when(m.lastSeen)}; last recalled ${when(m.lastRecalled)}`,
    m.sourceSession ? `from conversation ${m.sourceSession}${m.sourceEntry ? `, entry ${m.sourceEntry}` : ''}` : 'added by the user',
    ...(m.supersedes !== null ? [`replaces #${m.supersedes}`] : []),
  ].join('\n');
}

function describeWrite({ outcome, memory, replaced }: WriteOutcome): string {
  if (outcome === 'declined') return `The user turned this memory down before (#${memory.id}); it was not suggested again.`;
  if (outcome === 'repeated') return `Already remembered (#${memory.id}, noted ${memory.evidence} times).`;
  const replaces = replaced ? ` It replaces #${replaced.id}.` : memory.supersedes !== null ? ` Once accepted it replaces #${memory.supersedes}.` : '';
  return memory.status === 'suggested'
    ? `Suggested as memory #${memory.id}: it is kept once the user accepts it in the Memory panel.${replaces}`
    : `Remembered as #${memory.id}.${replaces}`;
}
