import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiProvider, createAmberClient } from './api/index.ts';
import { ServerStateProvider } from './server-state/index.ts';
import { App } from './app/index.ts';
import { warmUpMarkdown } from './chat/index.ts';
import { ToastProvider } from './ui/index.ts';

const client = createAmberClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApiProvider client={client}>
      <ServerStateProvider>
        <ToastProvider>
          <App />
        </ToastProvider>
      </ServerStateProvider>
    </ApiProvider>
  </StrictMode>,
);

requestIdleCallback(warmUpMarkdown, { timeout: 2000 });
