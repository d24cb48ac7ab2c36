import type { Channel } from '../../shared/api/index.ts';
import type { Attachment } from '../../shared/attachments/index.ts';
import { thinkingLevelOf } from '../../shared/agent/index.ts';
import type { Disposable } from '../../shared/disposable.ts';
import type { Message } from '../../shared/sessions/index.ts';
import type { App } from '../app.ts';
import { assertIdle, checkModelChoice, checkThinkingLevel, type ModelRef } from '../agent/index.ts';
import { AmberError } from '../errors.ts';
import { type AttachmentTarget, messageContent } from './message-attachments.ts';
import { modelChoices } from './model-choices.ts';
import type { Handlers } from './api-router.ts';

type ChatChannels = Extract<Channel, `chat.${string}` | `instructions.${string}` | `approvals.${string}` | `blobs.${string}`>;

/** A sent message as View prompt shows it: its role and its text, tool calls and results written out. */
function sentMessageText(m: Message): { role: string; text: string } {
  const content = (m as { content?: unknown }).content;
  if (typeof content === 'string') return { role: m.role, text: content };
  if (!Array.isArray(content)) return { role: m.role, text: '' };
  const parts = (content as { type: string; text?: string; thinking?: string; name?: string; arguments?: unknown }[]).map((c) => {
    if (c.type === 'text') return c.text ?? '';
    if (c.type === 'thinking') return `[thinking] ${c.thinking ?? ''}`;
    if (c.type === 'toolCall') return `[tool call] ${c.name ?? ''} ${JSON.stringify(c.arguments ?? {})}`;
    if (c.type === 'image') return '[image]';
    return '';
  });
  const name = (m as { toolName?: unknown }).toolName;
  const text = parts.filter(Boolean).join('\n');
  return { role: m.role, text: m.role === 'toolResult' && typeof name === 'string' ? `[${name} result]\n${text}` : text };
}

const NOT_STREAMING = 'No reply is streaming any more; send your message as a new one.';

function noModel(): never {
  throw new AmberError('unavailable', 'No model is set up, so messages cannot be sent yet. Set up a provider first (the button at the top right).');
}

/**
 * A conversation's runs over the agent: send, regenerate, stop, steer, the model and thinking level, the
 * user's instructions and the approvals a run asks for. The agent, the approvals and the store announce
 * what these change.
 */
export function createChatRoutes(app: App): Disposable & { handlers: Pick<Handlers, ChatChannels> } {
  const { sessions: store, agent } = app;

  /** A branch that names no model yet gets the default one; without either, there is nothing to send to. */
  const startOptions = (sessionId: string, leafId?: string | null): { model?: { provider: string; modelId: string } } => {
    if (store.branchState(sessionId, leafId).model !== null) return {};
    const model = app.defaultModel();
    return model ? { model } : noModel();
  };

  /** The model a message goes to (the branch's, else the default), as attachments are checked against it. */
  const attachmentTarget = (sessionId: string, leafId: string | null | undefined, starting?: ModelRef): AttachmentTarget => {
    const ref = starting ?? store.branchState(sessionId, leafId).model ?? app.defaultModel();
    if (!ref) return { modelId: 'the model', images: null, dialect: null };
    const dialect = app.providers.list().find((a) => a.id === ref.provider)?.dialect ?? null;
    return { modelId: ref.modelId, images: app.modelInfo(ref)?.images ?? null, dialect };
  };

  /** A steered or followed-up message's content: its attachments checked as a sent message's are, against the branch's model, before it is queued. */
  const queuedContent = (sessionId: string, text: string, attachments: readonly Attachment[] = []) =>
    attachments.length === 0 ? text : messageContent(text, attachments, attachmentTarget(sessionId, undefined), store.blobs);

  return {
    handlers: {
      'chat.send': ({ sessionId, text, parentId, attachments }) => {
        assertIdle(agent, sessionId, 'send another message');
        const runOptions = startOptions(sessionId, parentId);
        // Checked before the branch moves: a refused attachment changes nothing.
        const content = messageContent(text, attachments ?? [], attachmentTarget(sessionId, parentId, runOptions.model), store.blobs);
        if (parentId !== undefined) {
          // Editing an earlier message: the new one forks where the old one hung.
          store.branch(sessionId, parentId);
        }
        return { runId: agent.start(sessionId, content, runOptions).runId };
      },
      'blobs.get': ({ hash }) => {
        const blob = store.blobs.get(hash);
        if (!blob) throw new AmberError('not_found', `No stored image has the hash ${hash.slice(0, 12)}… (it may belong to a deleted conversation).`);
        return { mimeType: blob.mimeType, dataUrl: `data:${blob.mimeType};base64,${blob.bytes.toString('base64')}` };
      },
      'chat.regenerate': ({ sessionId, entryId }) => {
        assertIdle(agent, sessionId, 'regenerate');
        const entry = store.entry(sessionId, entryId);
        if (entry.type !== 'message' || entry.message.role !== 'assistant')
          throw new AmberError('invalid_input', 'Only a reply from the model can be regenerated.');
        const runOptions = startOptions(sessionId, entry.parentId);
        store.branch(sessionId, entry.parentId);
        return { runId: agent.start(sessionId, null, runOptions).runId };
      },
      'chat.abort': ({ sessionId }) => ({ aborted: agent.abort(sessionId) }),
      'chat.steer': ({ sessionId, text, attachments }) => {
        if (!agent.steer(sessionId, queuedContent(sessionId, text, attachments))) throw new AmberError('conflict', NOT_STREAMING);
        return { queued: true };
      },
      'chat.followUp': ({ sessionId, text, attachments }) => {
        if (!agent.followUp(sessionId, queuedContent(sessionId, text, attachments))) throw new AmberError('conflict', NOT_STREAMING);
        return { queued: true };
      },
      'chat.lastPrompt': ({ sessionId }) => {
        store.get(sessionId);
        const sent = agent.lastPrompt(sessionId);
        return (
          sent && {
            systemPrompt: sent.systemPrompt,
            tools: sent.tools.map(({ name, description, readOnly }) => ({ name, description, readOnly })),
            messages: sent.messages.map(sentMessageText),
            at: sent.at,
          }
        );
      },
      'chat.models': ({ sessionId }) => ({
        current: store.branchState(sessionId).model ?? app.defaultModel(),
        models: modelChoices(app),
      }),
      'chat.setModel': ({ sessionId, provider, modelId }) => {
        const choice = checkModelChoice({ provider, modelId }, app.plugins.registries.providers);
        assertIdle(agent, sessionId, 'switch models');
        const current = store.branchState(sessionId).model;
        if (!current || current.provider !== provider || current.modelId !== modelId) agent.setModel(sessionId, choice);
        return { current: choice };
      },
      'chat.getThinking': ({ sessionId }) => ({ level: thinkingLevelOf(store.branchState(sessionId).thinkingLevel) }),
      'chat.setThinking': ({ sessionId, level: typed }) => {
        const level = checkThinkingLevel(typed);
        assertIdle(agent, sessionId, 'change the thinking level');
        if (thinkingLevelOf(store.branchState(sessionId).thinkingLevel) !== level) agent.setThinkingLevel(sessionId, level);
        return { level };
      },
      'instructions.get': ({ sessionId }) => app.systemPrompt.instructions(sessionId ?? null),
      'instructions.set': ({ sessionId, text }) => {
        if (sessionId) store.get(sessionId);
        app.systemPrompt.setInstructions(sessionId, text);
        return app.systemPrompt.instructions(sessionId);
      },
      'approvals.list': () => app.approvals.pending(),
      'approvals.answer': ({ questionId, answer, scope }) => {
        app.approvals.answer(questionId, answer, scope);
        return { ok: true };
      },
    },
    dispose: () => {},
  };
}
