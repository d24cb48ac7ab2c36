import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useId, useState } from 'react';
import type { ApiOutput } from '../../shared/api/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { CopyButton, Icon, Modal } from '../ui/index.ts';
import { ContextTab } from './ContextTab.tsx';
import './prompt-viewer.css';

type Sent = NonNullable<ApiOutput<'chat.lastPrompt'>>;
type Tab = 'system' | 'tools' | 'messages' | 'context';

/** About four characters a token: an estimate, and the viewer says so. */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);
const tokensLabel = (n: number) => `~${n.toLocaleString()} tokens`;
const ROLE_LABELS: Record<string, string> = { user: 'You', assistant: 'Model', toolResult: 'Tool result' };

const toolsText = (sent: Sent) => sent.tools.map((t) => `${t.name}${t.readOnly ? ' (read-only)' : ''} — ${t.description}`).join('\n');
type SentMessages = NonNullable<Sent['messages']>;
const messagesText = (messages: SentMessages) => messages.map((m) => `[${m.role}]\n${m.text}`).join('\n\n');

/**
 * "View prompt": the system message, the tools and the messages of the conversation's last model request, a
 * tab each, with token estimates; and "Context now", what the next request would carry and why.
 */
export function PromptViewer({ sessionId, onClose, initialTab = 'system' }: { sessionId: string; onClose(): void; initialTab?: Tab }) {
  const api = useApi();
  const titleId = useId();
  const tabsId = useId();
  const [tab, setTab] = useState<Tab>(initialTab);
  // Read each time the viewer opens: the last request changes with every run.
  const query = useQuery({ queryKey: serverKeys.lastPrompt(sessionId), queryFn: () => api.call('chat.lastPrompt', { sessionId }), staleTime: 0, gcTime: 0 });
  const sent = query.isFetching ? undefined : query.data;
  const error = query.error ? query.error.message : null;
  const messages = sent?.messages ?? null;
  const tabs: { id: Tab; label: string; text: string }[] = sent
    ? [
        { id: 'system', label: 'System', text: sent.systemPrompt },
        { id: 'tools', label: `Tools (${sent.tools.length})`, text: toolsText(sent) },
        ...(messages ? [{ id: 'messages' as const, label: `Messages (${messages.length})`, text: messagesText(messages) }] : []),
      ]
    : [];
  const allTabs: { id: Tab; label: string; text?: string }[] = [...tabs, { id: 'context', label: 'Context now' }];
  const onTabKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const at = allTabs.findIndex((t) => t.id === tab);
    const next = allTabs[(at + (e.key === 'ArrowRight' ? 1 : allTabs.length - 1)) % allTabs.length]!;
    setTab(next.id);
    document.getElementById(`${tabsId}-${next.id}-tab`)?.focus();
  };

  return (
    <Modal className="modal prompt-viewer" labelledBy={titleId} testId="prompt-viewer" onEscape={onClose} onBackdrop={onClose}>
      <div className="modal-head">
        <span className="modal-icon">
          <Icon name="info" size={18} />
        </span>
        <div>
          <h2 id={titleId}>{tab === 'context' ? 'What the model sees now' : 'What the model was told'}</h2>
          <p className="muted">
            {tab === 'context'
              ? 'Each message of this branch as the next request would carry it. Token counts are estimates (about 4 characters a token).'
              : sent
                ? `The last request, ${new Date(sent.at).toLocaleTimeString()}. Token counts are estimates (about 4 characters a token).`
                : 'The system message, tools and messages of the last request.'}
          </p>
        </div>
      </div>
      <div className="prompt-tabs" role="tablist" aria-label="Parts of the request" onKeyDown={onTabKey}>
        {allTabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${tabsId}-${t.id}-tab`}
            aria-selected={tab === t.id}
            aria-controls={`${tabsId}-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            className="prompt-tab"
            data-testid={`prompt-tab-${t.id}`}
            onClick={() => setTab(t.id)}
          >
            {t.label} {t.text !== undefined && <span className="prompt-tokens">{tokensLabel(estimateTokens(t.text))}</span>}
          </button>
        ))}
        <span className="spacer" />
        {tab !== 'context' && sent && (
          <CopyButton key={tab} text={() => tabs.find((t) => t.id === tab)?.text ?? ''} label="Copy this part of the prompt" showLabel testId="copy-prompt" />
        )}
      </div>
      {tab !== 'context' && error && <p role="alert">{error}</p>}
      {tab !== 'context' && sent === null && (
        <p className="muted">Nothing was sent from this conversation since Amber started. Send a message, then look again.</p>
      )}
      {sent && (
        <>
          <div role="tabpanel" id={`${tabsId}-system`} aria-labelledby={`${tabsId}-system-tab`} hidden={tab !== 'system'}>
            <pre className="approval-args prompt-text" tabIndex={0} data-testid="prompt-system">
              {sent.systemPrompt}
            </pre>
          </div>
          <div role="tabpanel" id={`${tabsId}-tools`} aria-labelledby={`${tabsId}-tools-tab`} hidden={tab !== 'tools'}>
            <ul className="prompt-tools" data-testid="prompt-tools">
              {sent.tools.map((t) => (
                <li key={t.name}>
                  <code>{t.name}</code>
                  {t.readOnly ? ' (read-only)' : ''} — {t.description}
                </li>
              ))}
            </ul>
          </div>
          {messages && (
            <div role="tabpanel" id={`${tabsId}-messages`} aria-labelledby={`${tabsId}-messages-tab`} hidden={tab !== 'messages'}>
              <ol className="prompt-messages" data-testid="prompt-messages" tabIndex={0}>
                {messages.map((m, i) => (
                  <li key={i}>
                    <span className="prompt-role">{ROLE_LABELS[m.role] ?? m.role}</span>{' '}
                    <span className="prompt-tokens">{tokensLabel(estimateTokens(m.text))}</span>
                    <pre>{m.text}</pre>
                  </li>
                ))}
              </ol>
            </div>
          )}
        </>
      )}
      <div role="tabpanel" id={`${tabsId}-context`} aria-labelledby={`${tabsId}-context-tab`} hidden={tab !== 'context'}>
        {tab === 'context' && <ContextTab sessionId={sessionId} onRestored={onClose} />}
      </div>
      <div className="modal-actions">
        <span className="spacer" />
        <button type="button" className="btn" autoFocus onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
