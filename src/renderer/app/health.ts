export interface Health {
  ok: boolean;
  schemaVersion: number;
  sessions: number;
}

interface AmberBridge {
  health(): Promise<Health>;
}

/** Health from whichever transport is present: the preload bridge (desktop) or the loopback server (headless). */
export async function fetchHealth(): Promise<Health> {
  const bridge = (window as unknown as { amber?: AmberBridge }).amber;
  if (bridge) return bridge.health();
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const res = await fetch(`/health?token=${encodeURIComponent(token)}`);
  if (!res.ok) throw new Error(`The app did not answer (HTTP ${res.status}).`);
  return (await res.json()) as Health;
}
