import { expect, test } from 'vitest';
import { changeView, diffLines } from './change-preview.ts';

test('an edit shows the lines it removes and adds, with the lines around them as context', () => {
  const before = 'import a\nimport b\n\nconst x = 1;\nconst y = 2;\n\nexport { x, y }';
  const after = 'import a\nimport b\n\nconst x = 10;\nconst y = 2;\n\nexport { x, y }';
  expect(diffLines(before, after)).toEqual({
    lines: [
      { mark: ' ', text: 'import b' },
      { mark: ' ', text: '' },
      { mark: '-', text: 'const x = 1;' },
      { mark: '+', text: 'const x = 10;' },
      { mark: ' ', text: 'const y = 2;' },
      { mark: ' ', text: '' },
    ],
    more: 0,
  });
});

test('a long change shows its first lines and counts the rest', () => {
  const { lines, more } = diffLines(Array.from({ length: 30 }, (_, i) => `old ${i}`).join('\n'), 'new');
  expect(lines).toHaveLength(16);
  expect(more).toBe(15);
});

test('an edit call is read from its arguments, with the file as main found it', () => {
  const view = changeView({ path: 'src/a.ts', oldText: 'one', newText: 'two', replaceAll: true }, [{ path: '/ws/src/a.ts', exists: true, bytes: 120 }]);
  expect(view).toMatchObject({ kind: 'edit', path: 'src/a.ts', file: { exists: true, bytes: 120 }, replaceAll: true });
  expect(view?.kind === 'edit' && view.lines).toEqual([
    { mark: '-', text: 'one' },
    { mark: '+', text: 'two' },
  ]);
});

test("a write says whether it replaces a file and shows the new content's first lines", () => {
  const content = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
  const view = changeView({ path: 'notes.md', content }, [{ path: '/ws/notes.md', exists: true, bytes: 2048 }]);
  expect(view).toMatchObject({ kind: 'write', path: 'notes.md', file: { exists: true, bytes: 2048 }, more: 4, lineCount: 20, size: `${content.length} bytes` });
  expect(view?.kind === 'write' && view.lines[0]).toBe('line 1');
  expect(changeView({ path: 'new.md', content: 'x' }, [{ path: '/ws/new.md', exists: false }])).toMatchObject({ kind: 'write', file: { exists: false } });
});

test('other calls have no change to show', () => {
  expect(changeView({ command: 'ls' })).toBeNull();
  expect(changeView({ path: 'a' })).toBeNull();
  expect(changeView('text')).toBeNull();
});

test("an edit placed by main shows the file's own lines around it and where it lands", () => {
  const view = changeView({ path: 'a.ts', oldText: 'b', newText: 'B' }, [
    { path: '/ws/a.ts', exists: true, bytes: 10, edit: { line: 2, occurrences: 1, before: ['a'], after: ['c', 'd'] } },
  ]);
  expect(view).toMatchObject({ kind: 'edit', line: 2, occurrences: 1 });
  expect(view?.kind === 'edit' && view.lines.map((l) => `${l.mark}${l.text}`)).toEqual([' a', '-b', '+B', ' c', ' d']);
});
