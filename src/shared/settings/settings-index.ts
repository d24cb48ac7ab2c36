import { ApprovalTimeoutSeconds, PolicyMode, ThinkingLevel } from '../agent/index.ts';
import { CORE_SETTINGS, type CoreSettingKey, INSTRUCTIONS_LIMIT } from './core-settings.ts';

/** What a setting's value is typed as on the command line, and so what completes after its name. */
export type SettingInput =
  | { kind: 'choice'; choices: readonly { value: string; help: string }[] }
  | { kind: 'range'; min: number; max: number; unit: string; none?: { word: string; help: string } }
  | { kind: 'flag'; none?: { word: string; help: string } }
  | { kind: 'text'; max: number; clear: string }
  /** A model, as provider/model: completed from the models the providers list. */
  | { kind: 'model' };

export interface SettingIndexEntry {
  /** What the user types after /get and /set. */
  name: string;
  help: string;
  scope: 'global' | 'conversation';
  input: SettingInput;
  /** The core setting it reads and writes; absent: the conversation's own state (its branch or folder). */
  key?: CoreSettingKey;
}

const help = (key: CoreSettingKey): string => CORE_SETTINGS[key].help;

/**
 * The settings `/get` and `/set` reach by name: the core settings a user changes, from CORE_SETTINGS, and the
 * conversation's model, thinking level and workspace folder (kept in the conversation, not the table).
 */
export const SETTINGS_INDEX: readonly SettingIndexEntry[] = [
  {
    name: 'policy.mode',
    key: 'policy.mode',
    scope: 'conversation',
    help: help('policy.mode'),
    input: {
      kind: 'choice',
      choices: [
        { value: PolicyMode.enum.read, help: 'Only read-only tools run' },
        { value: PolicyMode.enum.write, help: 'Writes inside the workspace run; the rest asks' },
        { value: PolicyMode.enum.yolo, help: 'Runs without asking, but protected paths and risky shell lines still ask' },
      ],
    },
  },
  {
    name: 'policy.approvalTimeoutSeconds',
    key: 'policy.approvalTimeoutSeconds',
    scope: 'global',
    help: help('policy.approvalTimeoutSeconds'),
    input: {
      kind: 'range',
      min: ApprovalTimeoutSeconds.minValue ?? 1,
      max: ApprovalTimeoutSeconds.maxValue ?? 86_400,
      unit: 'seconds',
      none: { word: 'none', help: 'A question waits until it is answered' },
    },
  },
  { name: 'sandbox.network', key: 'sandbox.network', scope: 'global', help: help('sandbox.network'), input: { kind: 'flag' } },
  {
    name: 'sandbox.network.conversation',
    key: 'sandbox.network.conversation',
    scope: 'conversation',
    help: help('sandbox.network.conversation'),
    input: { kind: 'flag', none: { word: 'default', help: 'Follow sandbox.network again' } },
  },
  {
    name: 'agent.instructions',
    key: 'agent.instructions',
    scope: 'global',
    help: help('agent.instructions'),
    input: { kind: 'text', max: INSTRUCTIONS_LIMIT, clear: 'clear' },
  },
  {
    name: 'agent.instructions.conversation',
    key: 'agent.instructions.conversation',
    scope: 'conversation',
    help: help('agent.instructions.conversation'),
    input: { kind: 'text', max: INSTRUCTIONS_LIMIT, clear: 'clear' },
  },
  { name: 'agent.todo', key: 'agent.todo', scope: 'global', help: help('agent.todo'), input: { kind: 'flag' } },
  { name: 'conversations.autoTitle', key: 'conversations.autoTitle', scope: 'global', help: help('conversations.autoTitle'), input: { kind: 'flag' } },
  { name: 'agent.subagents', key: 'agent.subagents', scope: 'global', help: help('agent.subagents'), input: { kind: 'flag' } },
  ...(
    [
      ['agent.subagents.maxParallel', 1, 16, 'children'],
      ['agent.subagents.maxPerTurn', 1, 256, 'children'],
      ['agent.subagents.maxIterations', 1, 1000, 'model calls'],
      ['agent.subagents.wallTimeMinutes', 1, 1440, 'minutes'],
    ] as const
  ).map(([key, min, max, unit]): SettingIndexEntry => ({ name: key, key, scope: 'global', help: help(key), input: { kind: 'range', min, max, unit } })),
  {
    name: 'agent.subagents.budgetTokens',
    key: 'agent.subagents.budgetTokens',
    scope: 'global',
    help: help('agent.subagents.budgetTokens'),
    input: { kind: 'range', min: 0, max: 1_000_000_000, unit: 'tokens (0: no limit)' },
  },
  {
    name: 'context.maskAfterTokens',
    key: 'context.maskAfterTokens',
    scope: 'global',
    help: help('context.maskAfterTokens'),
    input: { kind: 'range', min: 0, max: 10_000_000, unit: 'tokens (0: never hide)' },
  },
  {
    name: 'context.maskBatchTokens',
    key: 'context.maskBatchTokens',
    scope: 'global',
    help: help('context.maskBatchTokens'),
    input: { kind: 'range', min: 0, max: 10_000_000, unit: 'tokens' },
  },
  {
    name: 'context.keepPercent',
    key: 'context.keepPercent',
    scope: 'global',
    help: help('context.keepPercent'),
    input: { kind: 'range', min: 10, max: 90, unit: "percent of the model's window" },
  },
  { name: 'model', scope: 'conversation', help: 'The model of this conversation (provider/model)', input: { kind: 'model' } },
  {
    name: 'thinking',
    scope: 'conversation',
    help: 'How much the model thinks before answering in this conversation',
    input: {
      kind: 'choice',
      choices: ThinkingLevel.options.map((value) => ({
        value,
        help: value === 'off' ? 'No extra thinking' : `Think ${value === 'low' ? 'a little' : value === 'medium' ? 'some' : 'hard'}`,
      })),
    },
  },
  { name: 'workspace', scope: 'conversation', help: 'The folder this conversation works in', input: { kind: 'text', max: 4096, clear: '' } },
];

export function settingIndexEntry(name: string): SettingIndexEntry | undefined {
  return SETTINGS_INDEX.find((e) => e.name === name);
}

/**
 * A name as the user typed it: a whole name, or the end of exactly one after a dot (`mode` is policy.mode,
 * `approvalTimeoutSeconds` is policy.approvalTimeoutSeconds). `candidates` lists the names an ambiguous end
 * could mean; both are absent when nothing matches.
 */
export function resolveSettingName(name: string): { entry?: SettingIndexEntry; candidates?: string[] } {
  const exact = settingIndexEntry(name);
  if (exact) return { entry: exact };
  if (name === '' || name.length > 200) return {};
  const ends = SETTINGS_INDEX.filter((e) => e.name.endsWith(`.${name}`));
  if (ends.length === 1) return { entry: ends[0]! };
  return ends.length > 1 ? { candidates: ends.map((e) => e.name) } : {};
}

/** A value typed on the command line: what to set (null: clear it), or a sentence saying what is wrong. */
export type ParsedSettingInput = { ok: true; value: string | number | boolean | null } | { ok: false; problem: string };

/** Reads `text` as a value of `entry`. Never throws; the problem is a sentence the user can act on. */
export function parseSettingInput(entry: SettingIndexEntry, text: string): ParsedSettingInput {
  const input = entry.input;
  const typed = text.trim();
  const shown = typed.length > 40 ? `“${typed.slice(0, 40)}…”` : `“${typed}”`;
  switch (input.kind) {
    case 'choice': {
      const choice = input.choices.find((c) => c.value === typed.toLowerCase());
      if (choice) return { ok: true, value: choice.value };
      return { ok: false, problem: `${shown} is not a value of ${entry.name}: use ${orList(input.choices.map((c) => c.value))}.` };
    }
    case 'range': {
      if (input.none && typed.toLowerCase() === input.none.word) return { ok: true, value: null };
      const either = `a whole number of ${input.unit} from ${input.min.toLocaleString('en')} to ${input.max.toLocaleString('en')}${input.none ? `, or ${input.none.word}` : ''}`;
      if (!/^[0-9]{1,15}$/.test(typed.replace(/,/g, ''))) return { ok: false, problem: `${shown} is not a number: ${entry.name} takes ${either}.` };
      const n = Number(typed.replace(/,/g, ''));
      if (n < input.min || n > input.max) return { ok: false, problem: `${shown} is out of range: ${entry.name} takes ${either}.` };
      return { ok: true, value: n };
    }
    case 'flag': {
      const word = typed.toLowerCase();
      if (word === 'on' || word === 'true') return { ok: true, value: true };
      if (word === 'off' || word === 'false') return { ok: true, value: false };
      if (input.none && word === input.none.word) return { ok: true, value: null };
      return { ok: false, problem: `${shown} is not a value of ${entry.name}: use ${orList(['on', 'off', ...(input.none ? [input.none.word] : [])])}.` };
    }
    case 'text': {
      if (input.clear !== '' && typed === input.clear) return { ok: true, value: null };
      if (typed.length > input.max)
        return {
          ok: false,
          problem: `${entry.name} holds at most ${input.max.toLocaleString('en')} characters; this is ${typed.length.toLocaleString('en')}. Shorten it and set it again.`,
        };
      return { ok: true, value: typed };
    }
    case 'model': {
      if (typed.length > 300 || /\s/.test(typed)) return { ok: false, problem: `${shown} is not a model: name one as provider/model (Tab completes them).` };
      return { ok: true, value: typed };
    }
  }
}

/** The words that complete after a setting's name: its choices, the ends of its range, its "none" word. */
export function settingInputHints(entry: SettingIndexEntry): { value: string; help: string }[] {
  const input = entry.input;
  switch (input.kind) {
    case 'choice':
      return [...input.choices];
    case 'range':
      return [
        {
          value: String(input.min),
          help: `The least: ${input.min.toLocaleString('en')} ${input.unit} (${input.min.toLocaleString('en')} to ${input.max.toLocaleString('en')})`,
        },
        { value: String(input.max), help: `The most: ${input.max.toLocaleString('en')} ${input.unit}` },
        ...(input.none ? [{ value: input.none.word, help: input.none.help }] : []),
      ];
    case 'flag':
      return [{ value: 'on', help: 'On' }, { value: 'off', help: 'Off' }, ...(input.none ? [{ value: input.none.word, help: input.none.help }] : [])];
    case 'text':
      return input.clear !== '' ? [{ value: input.clear, help: 'Remove it' }] : [];
    case 'model':
      return [];
  }
}

function orList(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}
