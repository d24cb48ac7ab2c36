import { useEffect, useState } from 'react';
import { fetchHealth, type Health } from './health.ts';

export function App() {
  const [health, setHealth] = useState<Health | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    fetchHealth().then(setHealth, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);
  return (
    <main className="app">
      <h1>Amber</h1>
      {error && <p role="alert">{error}</p>}
      {health && (
        <p data-testid="health">
          Ready — {health.sessions} session{health.sessions === 1 ? '' : 's'} (schema {health.schemaVersion})
        </p>
      )}
    </main>
  );
}
