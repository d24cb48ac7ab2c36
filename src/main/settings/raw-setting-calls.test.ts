import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterEach, expect, test } from 'vitest';

// Amber's own settings are typed keys read and written through one service: a raw settings-table call
// anywhere else in main would bypass the schemas, the defaults and the warnings. Only the service and the
// stores that hold the table may make them.
const ALLOWED = new Set(['settings/settings-service.ts', 'sessions/settings-store.ts', 'sessions/session-store.ts']);
const RAW_CALL = /\.\s*(getSetting|setSetting)\s*\(/;

/** Every raw settings call in main's code outside ALLOWED (tests excepted), as `file:line`. */
function rawSettingCalls(mainRoot: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) {
        const rel = relative(mainRoot, path).split(sep).join('/');
        if (ALLOWED.has(rel)) continue;
        readFileSync(path, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (RAW_CALL.test(line)) found.push(`${rel}:${i + 1}`);
          });
      }
    }
  };
  walk(mainRoot);
  return found;
}

let planted: string | undefined;
afterEach(() => {
  if (planted) rmSync(planted, { recursive: true, force: true });
  planted = undefined;
});

test('no raw getSetting/setSetting call remains in main outside the settings service and the stores', () => {
  expect(rawSettingCalls(join(import.meta.dirname, '..'))).toEqual([]);
});

test('the check finds a raw call where one is planted, and names its file and line', () => {
  planted = mkdtempSync(join(tmpdir(), 'amber-raw-settings-'));
  mkdirSync(join(planted, 'policy'));
  mkdirSync(join(planted, 'settings'));
  writeFileSync(join(planted, 'policy', 'sneaky.ts'), "const a = 1;\nconst mode = store.getSetting('policy.mode.s1');\nstore\n  .setSetting('x', null);\n");
  writeFileSync(join(planted, 'policy', 'sneaky.test.ts'), "store.getSetting('fine in a test');\n");
  writeFileSync(join(planted, 'settings', 'settings-service.ts'), 'this.#store.getSetting(key);\n');
  expect(rawSettingCalls(planted)).toEqual(['policy/sneaky.ts:2', 'policy/sneaky.ts:4']);
});
