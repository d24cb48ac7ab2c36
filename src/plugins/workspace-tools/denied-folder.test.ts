import { expect, test } from 'vitest';
import { deniedFolderOf, isInsideFolder } from './index.ts';

test('a path is in a denied folder when it is the folder or below it, compared by whole names', () => {
  const denied = ['/home/u/.amber', '/var/amber-data/'];
  expect(deniedFolderOf('/home/u/.amber', denied)).toBe('/home/u/.amber');
  expect(deniedFolderOf('/home/u/.amber/secrets.json', denied)).toBe('/home/u/.amber');
  expect(deniedFolderOf('/home/u/.amber/../.amber/db.sqlite', denied)).toBe('/home/u/.amber');
  expect(deniedFolderOf('/var/amber-data/x', denied)).toBe('/var/amber-data/');
  expect(deniedFolderOf('/home/u/.amber2/x', denied)).toBeUndefined();
  expect(deniedFolderOf('/home/u', denied)).toBeUndefined();
  expect(deniedFolderOf('/home/u/x', undefined)).toBeUndefined();
});

test('inside-folder tests end at a separator, so a sibling sharing the prefix is outside', () => {
  expect(isInsideFolder('/ws', '/ws')).toBe(true);
  expect(isInsideFolder('/ws', '/ws/a')).toBe(true);
  expect(isInsideFolder('/ws', '/ws2')).toBe(false);
  expect(isInsideFolder('/', '/anything')).toBe(true);
});
