import type { PanelAction, PanelRow, PanelViewModel, StatusSegment } from '../../workers/sdk/index.ts';
import { type MemoryRecord, scopeLabel } from './memory-record.ts';

export const MEMORY_PANEL_ID = 'memory';
export const MEMORY_SEGMENT_ID = 'memory';

/** Memories shown in the panel at most (the tray and the list each); the rest are a command away. */
export const PANEL_MEMORIES = 40;
/** A memory's text in the panel is cut here (the whole text is in /memory list and the export). */
const PANEL_TEXT_CHARS = 240;

export type MemoryMode = 'suggest' | 'auto' | 'off';

export interface MemoryViewInput {
  mode: MemoryMode;
  paused: boolean;
  activeCount: number;
  suggestedCount: number;
  /** The newest PANEL_MEMORIES of them. */
  suggested: readonly MemoryRecord[];
  active: readonly MemoryRecord[];
  /** The memory deleted last, offered for undo until the next change. */
  lastDeleted: MemoryRecord | null;
  /** Forget all was asked for and waits for its confirmation. */
  confirmingForgetAll: boolean;
  notes: readonly string[];
}

const clip = (text: string) => (text.length > PANEL_TEXT_CHARS ? `${text.slice(0, PANEL_TEXT_CHARS - 1)}…` : text);
const item = (text: string, actions: PanelAction[]): PanelRow => ({ type: 'text', text, actions });

/** The Memory panel: the tray of suggestions on top, then the active memories by scope and kind, then the switches. */
export function memoryPanel(input: MemoryViewInput): PanelViewModel {
  const sections: PanelViewModel['sections'] = [];
  if (input.confirmingForgetAll)
    sections.push({
      title: 'Forget everything?',
      rows: [
        item(`All ${input.activeCount} memories and their history are removed for good; this cannot be undone.`, [
          { id: 'forget-all.confirm', label: 'Forget all' },
          { id: 'forget-all.cancel', label: 'Keep them' },
        ]),
      ],
    });
  if (input.lastDeleted) sections.push({ rows: [item(`Deleted: ${clip(input.lastDeleted.text)}`, [{ id: `undo.${input.lastDeleted.id}`, label: 'Undo' }])] });
  if (input.suggested.length > 0)
    sections.push({
      title: `To review (${input.suggestedCount})`,
      rows: input.suggested.map((m) =>
        item(`${clip(m.text)} — ${m.kind}, ${scopeLabel(m.scope)}${m.supersedes !== null ? `, replaces #${m.supersedes}` : ''}`, [
          { id: `accept.${m.id}`, label: 'Accept' },
          { id: `dismiss.${m.id}`, label: 'Dismiss' },
        ]),
      ),
    });
  const groups = new Map<string, MemoryRecord[]>();
  for (const m of input.active.slice(0, PANEL_MEMORIES)) {
    const key = `${scopeLabel(m.scope)} · ${m.kind}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  // Sections are capped (32): the tray, the notes and a few others leave room for 24 groups.
  for (const [title, memories] of [...groups].slice(0, 24))
    sections.push({
      title,
      rows: memories.map((m) =>
        item(`${m.pinned ? 'Pinned: ' : ''}${clip(m.text)}${m.evidence > 1 ? ` (×${m.evidence})` : ''} #${m.id}`, [
          m.pinned ? { id: `unpin.${m.id}`, label: 'Unpin' } : { id: `pin.${m.id}`, label: 'Pin' },
          { id: `delete.${m.id}`, label: 'Delete' },
        ]),
      ),
    });
  const status: PanelRow[] = [
    { type: 'keyValue', key: 'Mode', value: modeText(input.mode) },
    { type: 'keyValue', key: 'Recall', value: input.mode === 'off' ? 'off' : input.paused ? 'paused' : 'before each run' },
  ];
  if (input.activeCount === 0 && input.suggestedCount === 0)
    status.push({ type: 'text', text: 'Nothing remembered yet. Ask the agent to remember something, or type /memory add TEXT.' });
  if (input.suggestedCount > PANEL_MEMORIES)
    status.push({ type: 'text', text: `${input.suggestedCount - PANEL_MEMORIES} more to review: /memory lists them, /memory accept ID keeps one.` });
  if (input.activeCount > PANEL_MEMORIES)
    status.push({ type: 'text', text: `${input.activeCount - PANEL_MEMORIES} more: /memory list or /memory search WORDS.` });
  status.push({ type: 'text', text: 'Search with /memory search WORDS; export and import Markdown with /memory export [FILE] and /memory import FILE.' });
  for (const note of input.notes) status.push({ type: 'text', text: note });
  sections.push({ title: 'Settings', rows: status });
  return {
    id: MEMORY_PANEL_ID,
    title: 'Memory',
    sections,
    actions: [input.paused ? { id: 'resume', label: 'Resume recall' } : { id: 'pause', label: 'Pause recall' }, { id: 'forget-all', label: 'Forget all…' }],
  };
}

/** "memory: 12 (2 to review)"; left out of the bar while there is nothing to say. */
export function memorySegment(input: Pick<MemoryViewInput, 'mode' | 'paused' | 'activeCount' | 'suggestedCount'>): StatusSegment {
  const waiting = input.suggestedCount;
  const text =
    input.mode === 'off' || (input.activeCount === 0 && waiting === 0)
      ? ''
      : `memory: ${input.activeCount}${waiting > 0 ? ` (${waiting} to review)` : ''}${input.paused ? ', recall paused' : ''}`;
  return {
    id: MEMORY_SEGMENT_ID,
    text,
    tooltip: waiting > 0 ? 'Suggested memories wait in the Memory panel for Accept or Dismiss.' : 'Memories recalled before each run (Memory panel).',
    priority: 0,
  };
}

export function modeText(mode: MemoryMode): string {
  if (mode === 'auto') return 'auto (kept at once)';
  if (mode === 'off') return 'off (nothing kept or recalled)';
  return 'suggest (kept once you accept)';
}
