import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { AssistantMessage, ENTRY_TYPES, Entry, entryPreview, ToolResultMessage, UserMessage, type SessionSummary } from '../../shared/sessions/index.ts';
import { AmberError } from '../errors.ts';
import { checkedEntries } from './checked-entries.ts';
import { type PiLineProblem, PiSessionFormatError } from './pi-session-format-error.ts';
import { PiSessionHeader } from './pi-session-header.ts';
import type { ImportedSession } from './session-store.ts';

// pi's session file (JSONL): a header line, then one entry per line. Version 1 was a linear list without
// ids; version 2 made it a tree (id/parentId); version 3 renamed the message role `hookMessage` to
// `custom`. pi takes the last entry of the file as the leaf and resolves labels in file order.

export const PI_SESSION_VERSION = 3;

/** A parsed, migrated and checked pi session, ready for `SessionStore.importSession`. */
export interface ParsedPiSession extends ImportedSession {
  id: string;
  title: string;
  cwd: string | null;
  /** The version the file was written in (it is migrated to the current one). */
  version: number;
}

export interface ParsePiSessionOptions {
  /** Ids for version 1 entries, which have none; must not return an id in `used`. */
  newId?: (used: ReadonlySet<string>) => string;
}

type Json = Record<string, unknown>;
interface Line {
  line: number;
  value: Json;
}
interface Located {
  line: number;
  entry: Entry;
}

function defaultNewId(used: ReadonlySet<string>): string {
  for (;;) {
    const id = randomUUID().slice(0, 8);
    if (!used.has(id)) return id;
  }
}

/**
 * Reads a pi session file of any version (1–3) and migrates it as pi does. Every line is validated;
 * all problems are reported at once with their line numbers in a `PiSessionFormatError`, and nothing is
 * returned unless the whole file is sound. Entries come back with parents (and label targets) first, as
 * close to the file's order as that allows; the leaf is the file's last entry.
 */
export function parsePiSession(text: string, options: ParsePiSessionOptions = {}): ParsedPiSession {
  const problems: PiLineProblem[] = [];
  const lines: Line[] = [];
  // A byte-order mark, as some editors write, is not part of the first line's JSON.
  text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .forEach((raw, i) => {
      const source = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (source.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(source);
      } catch (e) {
        problems.push({ line: i + 1, message: `not valid JSON (${e instanceof Error ? e.message : String(e)})` });
        return;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) problems.push({ line: i + 1, message: 'not a JSON object' });
      else lines.push({ line: i + 1, value: value as Json });
    });

  const first = lines[0];
  if (first === undefined) {
    if (problems.length) throw new PiSessionFormatError(problems);
    throw new AmberError('invalid_input', 'The file is empty; a pi session starts with a session header line.');
  }
  const parsedHeader = PiSessionHeader.safeParse(first.value);
  if (!parsedHeader.success) {
    const message =
      first.value.type === 'session'
        ? `the session header is invalid: ${formatIssues(parsedHeader.error.issues)}`
        : 'the first line is not a pi session header (type "session")';
    throw new PiSessionFormatError([...problems, { line: first.line, message }]);
  }
  const header = parsedHeader.data;
  const version = header.version ?? 1;
  if (version > PI_SESSION_VERSION) {
    throw new AmberError(
      'invalid_input',
      `This pi session is format version ${version}, newer than the versions Amber reads (1 to ${PI_SESSION_VERSION}); update Amber to import it.`,
    );
  }

  const rest = lines.slice(1);
  if (version < 2) migrateV1ToV2(first.value, rest, options.newId ?? defaultNewId, problems);
  if (version < 3) migrateV2ToV3(rest);

  const located: Located[] = [];
  for (const { line, value } of rest) {
    const checked = validateEntry(value);
    if ('entry' in checked) located.push({ line, entry: checked.entry });
    else problems.push({ line, message: checked.problem });
  }
  if (problems.length) throw new PiSessionFormatError(problems);

  // Each step needs the one before it to have passed: references exist, then no cycles, then paths.
  checkReferences(located, problems);
  if (problems.length) throw new PiSessionFormatError(problems);
  const deps = dependencies(located);
  checkLoops(located, deps, problems);
  if (problems.length) throw new PiSessionFormatError(problems);
  checkCompactions(located, problems);
  if (problems.length) throw new PiSessionFormatError(problems);

  return {
    id: header.id,
    title: titleOf(located),
    cwd: header.cwd ? header.cwd : null,
    createdAt: parseTime(header.timestamp),
    entries: orderForImport(located, deps),
    leafId: located.at(-1)?.entry.id ?? null,
    version,
  };
}

/**
 * Writes a session as a version 3 pi file: the header, then every entry in creation order (parents before
 * children) except the leaf, which is written last because pi takes the last entry as the leaf.
 *
 * pi's format has no other leaf pointer, so two things cannot be kept exactly. When the leaf has children
 * (the user jumped back up the tree), those children precede their parent in the file: pi links entries
 * by id, and `parsePiSession` pulls the leaf forward to just before its first child again. And the leaf
 * comes back behind the entries created after it (up to that child): among its siblings it moves later,
 * and a leaf that is a label wins over labels on the same target made in between. A session with no
 * leaf (a new root pending) gets pi's default leaf, its last entry.
 */
export function serializePiSession(session: SessionSummary, entries: Iterable<Entry>): string {
  const header: PiSessionHeader = {
    type: 'session',
    version: PI_SESSION_VERSION,
    id: session.id,
    timestamp: new Date(session.createdAt).toISOString(),
    cwd: session.cwd ?? '',
  };
  const out = [JSON.stringify(header)];
  let leaf: Entry | null = null;
  for (const entry of entries) {
    if (entry.id === session.leafId) leaf = entry;
    else out.push(entryLine(entry));
  }
  if (session.leafId !== null) {
    if (leaf === null) throw new AmberError('internal', `The leaf ${session.leafId} of conversation ${session.id} is not among its entries.`);
    out.push(entryLine(leaf));
  }
  return `${out.join('\n')}\n`;
}

/** pi's own key order first, so the file reads like one pi wrote. */
function entryLine(entry: Entry): string {
  const { type, id, parentId, timestamp, ...rest } = entry;
  return JSON.stringify({ type, id, parentId, timestamp, ...rest });
}

// ── migrations (as pi performs them when it loads an older file) ─────────────

/** v1 → v2: entries get ids and are chained in file order; compactions point at entries by id, not index. */
function migrateV1ToV2(header: Json, rest: Line[], newId: (used: ReadonlySet<string>) => string, problems: PiLineProblem[]): void {
  const used = new Set<string>();
  let previous: string | null = null;
  for (const { value } of rest) {
    const id = newId(used);
    used.add(id);
    value.id = id;
    value.parentId = previous;
    previous = id;
  }
  // pi's v1 index counts the header as entry 0.
  const fileEntries = [header, ...rest.map((l) => l.value)];
  for (const { line, value } of rest) {
    if (value.type !== 'compaction' || typeof value.firstKeptEntryIndex !== 'number') continue;
    const target = fileEntries[value.firstKeptEntryIndex];
    if (target === undefined || target === header) {
      problems.push({ line, message: `the compaction keeps entry index ${value.firstKeptEntryIndex}, which is not an entry of this file` });
      continue;
    }
    value.firstKeptEntryId = target.id;
    delete value.firstKeptEntryIndex;
  }
}

/** v2 → v3: the message role `hookMessage` became `custom`. */
function migrateV2ToV3(rest: Line[]): void {
  for (const { value } of rest) {
    const message = value.message as Json | undefined;
    if (value.type === 'message' && typeof message === 'object' && message !== null && message.role === 'hookMessage') message.role = 'custom';
  }
}

// ── validation ───────────────────────────────────────────────────────────────

const MESSAGE_SCHEMAS = new Map<string, z.ZodType>([
  ['user', UserMessage],
  ['assistant', AssistantMessage],
  ['toolResult', ToolResultMessage],
]);

function validateEntry(value: Json): { entry: Entry } | { problem: string } {
  const type = value.type;
  if (typeof type !== 'string') return { problem: 'the entry has no type' };
  if (!(ENTRY_TYPES as readonly string[]).includes(type)) return { problem: `unknown entry type '${type}'` };
  const parsed = checkedEntries.safeParse(value);
  if (parsed.success) return { entry: parsed.data };
  // A message that fails is checked against its role's own shape: the union's error says only "invalid".
  const message = value.message as Json | undefined;
  const schema = type === 'message' && typeof message?.role === 'string' ? MESSAGE_SCHEMAS.get(message.role) : undefined;
  if (schema) {
    const own = schema.safeParse(message);
    const outside = parsed.error.issues.filter((i) => i.path[0] !== 'message');
    const inside = own.success ? [] : own.error.issues.map((i) => ({ ...i, path: ['message', ...i.path] }));
    if (outside.length + inside.length > 0) return { problem: `${type} entry: ${formatIssues([...outside, ...inside])}` };
  }
  return { problem: `${type} entry: ${formatIssues(parsed.error.issues)}` };
}

function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((i) => {
      const what = i.message.replace(/^Invalid input: /, '');
      return i.path.length ? `${i.path.join('.')}: ${what}` : what;
    })
    .join('; ');
}

/** Ids are unique; parents and label targets exist. */
function checkReferences(located: Located[], problems: PiLineProblem[]): void {
  const byId = new Map<string, Located>();
  for (const item of located) {
    const seen = byId.get(item.entry.id);
    if (seen) problems.push({ line: item.line, message: `the id ${item.entry.id} is already used on line ${seen.line}` });
    else byId.set(item.entry.id, item);
  }
  for (const { line, entry } of located) {
    if (entry.parentId !== null && !byId.has(entry.parentId)) problems.push({ line, message: `its parent ${entry.parentId} is not in the file` });
    if (entry.type === 'label' && !byId.has(entry.targetId)) problems.push({ line, message: `the label's target ${entry.targetId} is not in the file` });
  }
}

/** A compaction keeps an entry above it on its own branch (else no context can be built from it). Needs an acyclic tree. */
function checkCompactions(located: Located[], problems: PiLineProblem[]): void {
  const parentOf = new Map(located.map(({ entry }) => [entry.id, entry.parentId]));
  for (const { line, entry } of located) {
    if (entry.type !== 'compaction') continue;
    let current = entry.parentId;
    while (current !== null && current !== entry.firstKeptEntryId) current = parentOf.get(current) ?? null;
    if (current !== entry.firstKeptEntryId) {
      problems.push({ line, message: `the compaction keeps entry ${entry.firstKeptEntryId}, which is not an earlier entry on its branch` });
    }
  }
}

/** What an entry needs inserted before it: its parent and, for a label, its target. */
function dependencies(located: Located[]): number[][] {
  const indexById = new Map(located.map((l, i) => [l.entry.id, i]));
  return located.map(({ entry }) => {
    const deps = entry.parentId === null ? [] : [indexById.get(entry.parentId)!];
    if (entry.type === 'label') deps.push(indexById.get(entry.targetId)!);
    return deps;
  });
}

/** Entries whose parent chain (or label target) loops back to themselves can never be inserted. */
function checkLoops(located: Located[], deps: number[][], problems: PiLineProblem[]): void {
  const dependents = located.map((): number[] => []);
  const missing = deps.map((d, i) => {
    for (const j of d) dependents[j]!.push(i);
    return d.length;
  });
  const ready = missing.flatMap((n, i) => (n === 0 ? [i] : []));
  for (let i = ready.pop(); i !== undefined; i = ready.pop()) {
    for (const k of dependents[i]!) if (--missing[k]! === 0) ready.push(k);
  }
  missing.forEach((n, i) => {
    if (n > 0)
      problems.push({
        line: located[i]!.line,
        message: `entry ${located[i]!.entry.id} sits on or below a loop: its parent chain or label target leads back to itself`,
      });
  });
}

/**
 * The order to insert in: file order, except that an entry the file names before its parent (or label
 * target) pulls that dependency forward to just before itself. Everything else keeps its relative order,
 * so a file whose leaf was moved to the end (see `serializePiSession`) gets its creation order back.
 * Needs a loop-free file (`checkLoops`).
 */
function orderForImport(located: Located[], deps: number[][]): Entry[] {
  const done = new Uint8Array(located.length);
  const out: Entry[] = [];
  for (let root = 0; root < located.length; root++) {
    if (done[root]) continue;
    // Depth-first over dependencies, without recursion: a pulled-forward chain may be as long as the file.
    const stack: { i: number; next: number }[] = [{ i: root, next: 0 }];
    while (stack.length) {
      const frame = stack.at(-1)!;
      const dep = deps[frame.i]![frame.next++];
      if (dep === undefined) {
        stack.pop();
        done[frame.i] = 1;
        out.push(located[frame.i]!.entry);
      } else if (!done[dep]) {
        stack.push({ i: dep, next: 0 });
      }
    }
  }
  return out;
}

// ── session metadata ─────────────────────────────────────────────────────────

/** pi's name for the session (the newest session_info name), else the first user message's preview. */
function titleOf(located: Located[]): string {
  for (let i = located.length - 1; i >= 0; i--) {
    const entry = located[i]!.entry;
    if (entry.type === 'session_info' && entry.name?.trim()) return entry.name.trim().slice(0, 200);
  }
  const firstUser = located.find(({ entry }) => entry.type === 'message' && entry.message.role === 'user');
  return firstUser ? entryPreview(firstUser.entry) : '';
}

function parseTime(timestamp: string): number | undefined {
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? undefined : t;
}
