import { useEffect, useRef } from 'react';

export type Shortcuts = Record<string, () => void>;

/** Global shortcuts, written as 'mod+n' or 'mod+shift+t' (mod is Ctrl, or Cmd on macOS). */
export function useShortcuts(shortcuts: Shortcuts): void {
  const ref = useRef(shortcuts);
  ref.current = shortcuts;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (!mod) return;
      const combo = `mod+${e.shiftKey ? 'shift+' : ''}${e.key.toLowerCase()}`;
      const run = ref.current[combo];
      if (run) {
        e.preventDefault();
        run();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
