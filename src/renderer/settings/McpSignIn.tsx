import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { McpServerView } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { useToasts } from '../ui/index.ts';
import './mcp-sign-in.css';

/**
 * A server row's OAuth sign-in: **Sign in** where the server asks for it (main answers the authorization
 * page, opened here in a new window: in the desktop app the window's guard sends it to the system browser),
 * with the page's link kept in view in case the window did not open; **Sign out** once signed in. The row's
 * state follows mcp.changed: the plugin finishes the sign-in when the browser comes back.
 */
export function McpSignIn({ server }: { server: McpServerView }) {
  const api = useApi();
  const toasts = useToasts();
  const queries = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [page, setPage] = useState<string | null>(null);
  // A server switched off offers Sign out (its sign-in is kept) but no Sign in.
  if (server.signIn === undefined || (server.state === 'off' && server.signIn !== 'signedIn')) return null;

  const signIn = async () => {
    setBusy(true);
    try {
      const { url } = await api.call('mcp.signIn', { name: server.name });
      setPage(url);
      window.open(url, '_blank', 'noopener,noreferrer');
    } catch (e) {
      toasts.error(`Could not start the sign-in to ${server.name}`, e);
    } finally {
      setBusy(false);
    }
  };
  const signOut = async () => {
    setBusy(true);
    try {
      queries.setQueryData(serverKeys.mcp, await api.call('mcp.signOut', { name: server.name }));
      setPage(null);
    } catch (e) {
      toasts.error(`Could not sign out of ${server.name}`, e);
    } finally {
      setBusy(false);
    }
  };

  if (server.signIn === 'signedIn')
    return (
      <button
        type="button"
        className="btn btn-small btn-ghost"
        aria-disabled={busy || undefined}
        onClick={() => !busy && void signOut()}
        data-testid="mcp-sign-out"
      >
        Sign out
      </button>
    );
  return (
    <span className="mcp-sign-in">
      <button
        type="button"
        className="btn btn-small btn-primary"
        aria-disabled={busy || undefined}
        onClick={() => !busy && void signIn()}
        data-testid="mcp-sign-in"
        title="Opens the server's sign-in page in your browser"
      >
        {busy ? <span className="spinner" /> : null}
        {server.signIn === 'waiting' ? 'Sign in again' : 'Sign in'}
      </button>
      {server.signIn === 'waiting' && page && (
        <a className="mcp-sign-in-link small" href={page} target="_blank" rel="noopener noreferrer" data-testid="mcp-sign-in-link">
          Open the sign-in page
        </a>
      )}
    </span>
  );
}
