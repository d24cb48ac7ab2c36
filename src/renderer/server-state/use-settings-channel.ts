import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useToasts } from '../ui/index.ts';

/**
 * A settings group read and written over its own pair of API channels (the todo switch, titles, masking,
 * child agents): the value as the read channel answers it, and `save`, which stores what the write channel
 * answers. A failed read or write is said in a toast: "Could not read <read>", "Could not change <write>".
 */
export function useSettingsChannel<T, C>(
  key: readonly string[],
  what: { read: string; write: string },
  read: () => Promise<T>,
  write: (changes: C) => Promise<T>,
) {
  const toasts = useToasts();
  const queries = useQueryClient();
  const { data, error } = useQuery({ queryKey: key, queryFn: read, staleTime: 0 });
  useEffect(() => {
    if (error) toasts.error(`Could not read ${what.read}`, error);
  }, [error, toasts, what.read]);
  const save = async (changes: C) => {
    try {
      queries.setQueryData(key, await write(changes));
    } catch (e) {
      toasts.error(`Could not change ${what.write}`, e);
    }
  };
  return { data, save };
}
