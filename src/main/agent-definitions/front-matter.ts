import type { z } from 'zod';

/** A front-matter value: a scalar as written (quotes removed), or a `[a, b]` list. */
export type FrontMatterValue = string | string[];

export interface FrontMatter {
  fields: Record<string, FrontMatterValue>;
  /** What follows the closing `---`, trimmed. */
  body: string;
}

/** The front matter could not be read; `line` is 1-based in the file. */
export class FrontMatterError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = 'FrontMatterError';
    this.line = line;
  }
}

const KEY_LINE = /^([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*)$/;

function unquote(text: string, line: number): string {
  const t = text.trim();
  if (t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'")))) return t.slice(1, -1);
  if (t.startsWith('"') || t.startsWith("'")) throw new FrontMatterError(line, 'a quoted value is not closed on its line.');
  return t;
}

function valueOf(raw: string, line: number): FrontMatterValue {
  const t = raw.trim();
  if (!t.startsWith('[')) return unquote(t, line);
  if (!t.endsWith(']')) throw new FrontMatterError(line, 'a list must open and close on one line, as [a, b].');
  const inner = t.slice(1, -1).trim();
  if (inner === '') return [];
  return inner.split(',').map((item) => {
    const v = unquote(item, line);
    if (v === '') throw new FrontMatterError(line, 'a list has an empty item.');
    return v;
  });
}

/**
 * A deliberately small, strict reader of the front matter of an agent file: the file opens with a `---`
 * line, then only `key: value` and `key: [a, b]` lines (blank lines and `#` comments allowed), closed by a
 * `---` line. Anything else — nesting, multi-line values, a repeated key — is refused with its line number,
 * never guessed at. Throws FrontMatterError.
 */
export function parseFrontMatter(text: string): FrontMatter {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') throw new FrontMatterError(1, 'the file must start with a --- line, then the front matter, then another --- line.');
  const fields: Record<string, FrontMatterValue> = {};
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const at = i + 1;
    if (line.trim() === '---')
      return {
        fields,
        body: lines
          .slice(i + 1)
          .join('\n')
          .trim(),
      };
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (/^\s/.test(line)) throw new FrontMatterError(at, 'indented lines are not supported; write each field as key: value on its own line.');
    const match = KEY_LINE.exec(line);
    if (!match) throw new FrontMatterError(at, `expected key: value, found “${line.length > 40 ? `${line.slice(0, 40)}…` : line}”.`);
    const key = match[1]!;
    if (Object.hasOwn(fields, key)) throw new FrontMatterError(at, `the field ${key} is given twice.`);
    fields[key] = valueOf(match[2]!, at);
  }
  throw new FrontMatterError(lines.length, 'the front matter is not closed by a --- line.');
}

/**
 * A file's front matter checked against `schema`: its fields and body, or a sentence naming the file and the
 * first wrong field. `unknownField` completes "the field X …" for a field the file kind does not have.
 */
export function readFrontMatter<T>(
  text: string,
  schema: z.ZodType<T>,
  path: string,
  unknownField: string,
): { ok: true; fields: T; body: string } | { ok: false; problem: string } {
  let read: FrontMatter;
  try {
    read = parseFrontMatter(text);
  } catch (e) {
    if (e instanceof FrontMatterError) return { ok: false, problem: `${path}: ${e.message}` };
    throw e;
  }
  const parsed = schema.safeParse(read.fields);
  if (parsed.success) return { ok: true, fields: parsed.data, body: read.body };
  const issue = parsed.error.issues[0]!;
  const field = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : String(issue.path[0] ?? 'front matter');
  const message = issue.code === 'unrecognized_keys' ? unknownField : issue.code === 'invalid_type' && issue.input === undefined ? 'is missing' : issue.message;
  return { ok: false, problem: `${path}: the field ${field} ${message}.` };
}
