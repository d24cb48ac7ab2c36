// Routes and commands call owners; they never emit. The owners announce their own changes and one map
// (src/main/api/window-events.ts) turns them into window events, so no route or command may raise one.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { EVENT_NAMES } from '../../src/shared/api/index.ts';

const root = resolve(import.meta.dirname, '../..');
/** The one map from owner events to window events, and the router that hands them to a transport. */
const ALLOWED = new Set(['src/main/api/window-events.ts', 'src/main/api/api-router.ts']);

const quoted = EVENT_NAMES.map((name) => name.replace(/\./g, '\\.')).join('|');
const RULES: { what: string; pattern: RegExp }[] = [
  { what: 'emits a window event by name', pattern: new RegExp(`\\bemit\\s*(<[^>]*>)?\\(\\s*['"\`](${quoted})['"\`]`) },
  { what: 'takes an emit function for window events', pattern: /\bEventPayload\b|\bemit\??\s*(<[^>]*>)?\(\s*event\s*:\s*E\b/ },
  { what: 'fires a window event', pattern: /\.fire\s*\(\s*\{\s*event\s*[:,]/ },
  // The api face may re-export the map's types; nothing else here names them. (An owner that lives here,
  // like the command tree, fires its own Emitter: that is an owner event, not a window event.)
  { what: 'builds window events itself', pattern: /^(?!\s*export\b).*\bCoreEvent\b/ },
];

/** What in one file's text breaks the rule: one line per finding. */
function emitsWindowEvents(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const rule of RULES) if (rule.pattern.test(line)) found.push(`${file}:${i + 1} ${rule.what}: ${line.trim()}`);
  });
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
    .map((name) =>
      relative(root, join(root, dir, name))
        .split('\\')
        .join('/'),
    );
}

test('no file under src/main/api or src/main/commands emits a window event (only the map in createApp does)', () => {
  const files = [...sources('src/main/api'), ...sources('src/main/commands')].filter((f) => !ALLOWED.has(f));
  expect(files.length).toBeGreaterThan(5);
  expect(files.flatMap((f) => emitsWindowEvents(f, readFileSync(join(root, f), 'utf8')))).toEqual([]);
});

test('the check sees every way a route could emit', () => {
  const route = [
    "emit('session.created', summary);",
    "options.emit<'policy.changed'>('policy.changed', { sessionId });",
    'emit?<E extends EventName>(event: E, payload: EventPayload<E>): void;',
    "this.#events.fire({ event: 'status.changed', payload: view });",
    'const events = new Emitter<CoreEvent>();',
  ].join('\n');
  expect(emitsWindowEvents('route.ts', route)).toHaveLength(5);
  // Calling an owner, or a plugin topic, is not a window event.
  expect(emitsWindowEvents('route.ts', "store.rename(id, title);\nplugins.events.emit('my.topic', {});\nthis.#changes.fire();")).toEqual([]);
});
