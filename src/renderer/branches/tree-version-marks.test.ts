import { expect, test } from 'vitest';
import type { TreeNode } from '../../shared/sessions/index.ts';
import { layoutTree } from './tree-layout.ts';
import { treeVersionMarks } from './tree-version-marks.ts';

const hour = (h: number) => Date.UTC(2026, 10, 30, h);
const node = (id: string, parentId: string | null, role: string | null = 'user'): TreeNode => ({
  id,
  parentId,
  type: 'message',
  role,
  preview: id,
  label: null,
});

test('rows forking from the same row are marked as versions: the words that differ, the time, the model where models differ', () => {
  const nodes: TreeNode[] = [
    { ...node('q', null), preview: 'Which is faster?' },
    { ...node('a1', 'q', 'assistant'), preview: 'The **first** one is faster here', at: hour(9), model: 'small' },
    { ...node('a2', 'q', 'assistant'), preview: 'The second one is faster here', at: hour(10), model: 'large' },
    { ...node('f', 'a2'), preview: 'Thanks' },
  ];
  const marks = treeVersionMarks(layoutTree(nodes, 'f'), (ms) => `${new Date(ms).getUTCHours()}h`);
  expect([...marks.keys()].sort()).toEqual(['a1', 'a2']);
  expect(marks.get('a1')).toMatchObject({ words: 'first', cutBefore: true, rest: 'one is faster here', time: '9h', model: 'small' });
  expect(marks.get('a2')).toMatchObject({ words: 'second', time: '10h', model: 'large' });
});
