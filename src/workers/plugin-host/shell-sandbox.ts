import type { ShellSandbox } from '../../shared/tools/index.ts';

/**
 * A shell call's sandbox, checked by hand against ShellSandbox (this process does not load zod), or null
 * when absent or malformed in any field: the shell tool then takes the strictest sandbox, never none.
 */
export function shellSandbox(raw: unknown): ShellSandbox | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const { mode, network, unsandboxed, writable } = raw as Record<string, unknown>;
  if (mode !== 'read' && mode !== 'write' && mode !== 'yolo') return null;
  if (typeof network !== 'boolean') return null;
  if (unsandboxed !== undefined && typeof unsandboxed !== 'boolean') return null;
  if (
    writable !== undefined &&
    !(Array.isArray(writable) && writable.length <= 16 && writable.every((w) => typeof w === 'string' && w.length > 0 && w.length <= 4096))
  )
    return null;
  return {
    mode,
    network,
    ...(unsandboxed !== undefined ? { unsandboxed } : {}),
    ...(writable !== undefined ? { writable: [...(writable as string[])] } : {}),
  };
}
