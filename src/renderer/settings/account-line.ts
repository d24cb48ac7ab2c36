import type { ProviderConnectionView } from '../../shared/api/index.ts';
import { presetById } from '../../shared/providers/index.ts';

/**
 * What kind of server a connection is, and its id (what `/model ID/MODEL` and the picker's groups go by) where
 * its name alone could mislead: beside another connection of the same kind, or a name its id does not echo.
 */
export function accountLine(c: ProviderConnectionView, all: readonly ProviderConnectionView[]): string {
  const kind = presetById(c.presetId).name;
  const slug = c.name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const sameKind = all.some((o) => o.id !== c.id && o.presetId === c.presetId);
  return sameKind || slug !== c.id ? `${kind} · id ${c.id}` : kind;
}
