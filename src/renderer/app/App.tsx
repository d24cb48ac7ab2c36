import { useEffect, useState } from 'react';
import type { Bootstrap } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { AppLayout } from './AppLayout.tsx';

/** Boots the app: asks main what it needs to start, and says so plainly when it cannot. */
export function App() {
  const api = useApi();
  const [boot, setBoot] = useState<Bootstrap | null>(null);
  const [bootError, setBootError] = useState<string | null>(null);

  useEffect(() => {
    api.call('app.bootstrap', {}).then(setBoot, (e: unknown) => setBootError(e instanceof Error ? e.message : String(e)));
  }, [api]);

  if (bootError) {
    return (
      <div className="fatal" role="alert">
        <h1>Amber could not start</h1>
        <p>{bootError}</p>
        <button type="button" className="btn btn-primary" onClick={() => location.reload()}>
          Try again
        </button>
      </div>
    );
  }
  if (!boot) return <div className="booting" aria-busy="true" />;
  return <AppLayout boot={boot} />;
}
