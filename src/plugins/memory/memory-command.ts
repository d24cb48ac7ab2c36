import { MemoryKind } from './memory-record.ts';

export const MEMORY_HELP =
  'Memories kept across conversations: /memory add TEXT, list, search WORDS, accept|dismiss|pin|forget ID, edit ID TEXT, export, import FILE.';

export const MEMORY_MAN = `/memory — what Amber remembers across conversations.

/memory                      what is kept, what waits for review, and the mode
/memory add TEXT             remember TEXT (global; --workspace for this workspace only; --kind user|project|procedure)
/memory list                 every active memory, with its id
/memory show ID              one memory: its status, evidence, dates and the conversation it came from
/memory search WORDS         memories matching any of the words, best first
/memory accept ID            keep a suggested memory
/memory dismiss ID           turn a suggestion down (a repeat is not suggested again)
/memory pin ID | unpin ID    a pinned memory is recalled before every run
/memory edit ID TEXT         change a memory's words (the old wording stays in its history)
/memory forget ID            delete a memory (/memory restore ID brings it back)
/memory forget all --yes     remove every memory and its history for good
/memory pause | resume       stop or restart recall without changing what is kept
/memory mode                 the mode; change it with /set memory.mode suggest|auto|off
/memory export [FILE]        write the active memories as Markdown (default memories.md in the workspace)
/memory import FILE          read memories from a Markdown file inside the workspace

In suggest mode (the default) what the agent wants to remember waits in the Memory panel's tray until you
accept it; in auto mode it is kept at once; off keeps and recalls nothing.`;

export type MemoryCommand =
  | { action: 'show' | 'list' | 'mode' | 'pause' | 'resume' | 'help' }
  | { action: 'add'; text: string; kind: MemoryKind; workspace: boolean }
  | { action: 'search'; words: string }
  | { action: 'accept' | 'dismiss' | 'pin' | 'unpin' | 'forget' | 'restore'; id: number }
  | { action: 'detail'; id: number }
  | { action: 'forget-all' }
  | { action: 'edit'; id: number; text: string }
  | { action: 'export'; file: string | null }
  | { action: 'import'; file: string };

/** The words after /memory as a command, or a sentence saying what to type. */
export function parseMemoryCommand(args: readonly string[]): MemoryCommand | { error: string } {
  const [verb = '', ...rest] = args;
  switch (verb) {
    case '':
      return { action: 'show' };
    case 'help':
    case 'list':
    case 'mode':
    case 'pause':
    case 'resume':
      if (verb === 'mode' && rest.length > 0) return { error: 'Change the mode with /set memory.mode suggest, auto or off.' };
      return { action: verb };
    case 'add': {
      let kind: MemoryKind = 'user';
      let workspace = false;
      const words: string[] = [];
      for (let i = 0; i < rest.length; i++) {
        const w = rest[i]!;
        if (w === '--workspace') workspace = true;
        else if (w === '--kind') {
          const parsed = MemoryKind.safeParse(rest[++i]);
          if (!parsed.success) return { error: 'A memory’s kind is user, project or procedure.' };
          kind = parsed.data;
        } else words.push(w);
      }
      const text = words.join(' ').trim();
      if (text === '') return { error: 'Say what to remember: /memory add The user prefers tabs.' };
      return { action: 'add', text, kind, workspace };
    }
    case 'search': {
      const words = rest.join(' ').trim();
      return words === '' ? { error: 'Say what to look for: /memory search WORDS.' } : { action: 'search', words };
    }
    case 'forget':
    case 'show':
    case 'accept':
    case 'dismiss':
    case 'pin':
    case 'unpin':
    case 'restore': {
      if (verb === 'forget' && rest[0] === 'all')
        return rest[1] === '--yes' && rest.length === 2
          ? { action: 'forget-all' }
          : { error: 'This removes every memory for good: type /memory forget all --yes.' };
      const id = Number((rest[0] ?? '').replace(/^#/, ''));
      if (!Number.isSafeInteger(id) || id <= 0 || rest.length !== 1)
        return { error: `Name one memory by its number: /memory ${verb} 12 (/memory list shows them).` };
      return verb === 'show' ? { action: 'detail', id } : { action: verb, id };
    }
    case 'edit': {
      const id = Number((rest[0] ?? '').replace(/^#/, ''));
      const text = rest.slice(1).join(' ').trim();
      if (!Number.isSafeInteger(id) || id <= 0 || text === '') return { error: 'Name the memory and its new words: /memory edit 12 The user prefers spaces.' };
      return { action: 'edit', id, text };
    }
    case 'export':
      return { action: 'export', file: rest.join(' ').trim() || null };
    case 'import': {
      const file = rest.join(' ').trim();
      return file === '' ? { error: 'Name the Markdown file to import: /memory import notes/memories.md.' } : { action: 'import', file };
    }
    default:
      return { error: `/memory has no '${verb.slice(0, 40)}'. ${MEMORY_HELP}` };
  }
}
