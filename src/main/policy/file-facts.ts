import { statSync } from 'node:fs';
import type { ApprovalFile } from '../../shared/agent/index.ts';

/**
 * A file as an approval question shows it before the call: whether it exists and, for a regular file, its
 * size. Only the file's metadata is read (never its contents), and a path that cannot be read is "not there".
 */
export function fileFacts(path: string): ApprovalFile {
  try {
    const stat = statSync(path);
    return stat.isFile() ? { path, exists: true, bytes: stat.size } : { path, exists: true };
  } catch {
    return { path, exists: false };
  }
}
