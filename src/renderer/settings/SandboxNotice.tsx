import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { SettingsPage } from './settings-pages.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { useToasts } from '../ui/index.ts';

/**
 * Tells the window, once, when shell commands cannot run in a sandbox here (at start, or when a sandbox
 * later fails to start), with what to do about it. Renders nothing itself: the notice is a toast that stays
 * until dismissed.
 */
export function SandboxNotice({ onOpenSettings }: { onOpenSettings(page: SettingsPage): void }) {
  const api = useApi();
  const toasts = useToasts();
  const told = useRef(false);
  // policy.changed for every conversation (null) reads it again: the sandbox may fail to start later.
  const { data } = useQuery({ queryKey: serverKeys.sandbox(null), queryFn: () => api.call('policy.sandbox', {}), staleTime: 0 });

  useEffect(() => {
    if (!data || data.available || told.current) return;
    told.current = true;
    toasts.push({
      kind: 'error',
      title: 'Shell commands run without a sandbox',
      message: `${data.reason} Every command that is not read-only asks first. ${data.fix}`,
      action: { label: 'Settings', run: () => onOpenSettings('advanced') },
      timeoutMs: 0,
    });
  }, [data, toasts, onOpenSettings]);
  return null;
}
