/** How a plugin that keeps crashing is treated (PluginServiceOptions: crashLimit, crashWindowMs, restartBackoffMs). */
export interface CrashRules {
  /** Crashes within the window that leave the plugin Failed for good (until the user enables it again). */
  limit: number;
  windowMs: number;
  /** First restart delay; doubled for each further crash in the window. */
  backoffMs: number;
}

export interface CrashVerdict {
  /** The crash times still within the window, this one included: the plugin's new crash history. */
  crashes: number[];
  /** When to start it again, or null when it stays Failed. */
  restartInMs: number | null;
  /** The sentence the plugin's Failed state shows. */
  reason: string;
}

/**
 * What happens after a plugin process exits without main asking: it is Failed either way, and restarted
 * after a backoff unless it crashed `limit` times within the window or may not restart at all (switched
 * off, or the app is shutting down). Pure: the crash history and the time are given.
 */
export function crashVerdict(previous: readonly number[], now: number, how: string, rules: CrashRules, mayRestart: boolean): CrashVerdict {
  const crashes = [...previous.filter((t) => now - t < rules.windowMs), now];
  const base = `The plugin's process ${how}.`;
  if (!mayRestart) return { crashes, restartInMs: null, reason: base };
  if (crashes.length >= rules.limit) {
    const minutes = Math.round(rules.windowMs / 60_000);
    return {
      crashes,
      restartInMs: null,
      reason: `${base} It crashed ${crashes.length} times in ${minutes} minutes, so it stays off until you enable it again.`,
    };
  }
  const delay = rules.backoffMs * 2 ** (crashes.length - 1);
  return { crashes, restartInMs: delay, reason: `${base} Restarting in ${delay >= 1000 ? `${delay / 1000} s` : `${delay} ms`}.` };
}
