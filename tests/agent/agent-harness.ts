// Builds an AgentService over a real temp SQLite file with a scripted provider, and records its events.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentService, type AgentServiceOptions } from '../../src/main/agent/index.ts';
import { PolicyService, type Approver } from '../../src/main/policy/index.ts';
import { SettingsService } from '../../src/main/settings/index.ts';
import { SessionStore } from '../../src/main/sessions/index.ts';
import { AgentEvent } from '../../src/shared/agent/index.ts';
import type { ModelInfo } from '../../src/shared/providers/index.ts';
import type { Entry, Message } from '../../src/shared/sessions/index.ts';
import { MODEL, ScriptedProvider, type Script } from './scripted-provider.ts';

export interface Harness {
  dir: string;
  store: SessionStore;
  agent: AgentService;
  /** The policy the agent asks (built here as createApp builds it), or null when the test passed its own gate. */
  policy: PolicyService | null;
  provider: ScriptedProvider;
  sessionId: string;
  events: AgentEvent[];
  /** Resolves with the first event (already seen or yet to come) that matches. */
  next<T extends AgentEvent['type']>(type: T, match?: (e: Extract<AgentEvent, { type: T }>) => boolean): Promise<Extract<AgentEvent, { type: T }>>;
  /** The current branch, root first. */
  path(): Entry[];
  /** Messages of the current branch (everything persisted, failed replies included). */
  pathMessages(): Message[];
  close(): Promise<void>;
}

export function createHarness(
  scripts: Script[] = [],
  options: Partial<AgentServiceOptions> & {
    model?: ModelInfo;
    workspace?: string;
    /** For the harness's policy: who answers its questions. Absent: every question is answered "deny". */
    approver?: Approver;
    /** A folder whose amber.db to use (as after a restart); it is kept on close. Default: a fresh temp folder, removed on close. */
    dir?: string;
  } = {},
): Harness {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'amber-agent-'));
  const store = SessionStore.open(join(dir, 'amber.db'));
  const provider = new ScriptedProvider(scripts);
  const model = options.model ?? MODEL;
  const session = store.create({ title: 'test', cwd: options.workspace ?? join(dir, 'ws') });
  store.append(session.id, { type: 'model_change', provider: 'fake', modelId: model.id });
  const events: AgentEvent[] = [];
  const waiters: { test: (e: AgentEvent) => boolean; resolve: (e: AgentEvent) => void }[] = [];
  const policy = options.gate
    ? null
    : new PolicyService({ settings: new SettingsService({ store }), ...(options.approver ? { approver: options.approver } : {}) });
  const agent = new AgentService({
    store,
    resolveProvider: (ref) => {
      if (ref.provider !== 'fake') throw new Error(`no provider named ${ref.provider}`);
      return { stream: provider.stream, model: { ...model, id: ref.modelId } };
    },
    systemPrompt: 'You are a test.',
    ...options,
    gate: options.gate ?? policy!,
    emit: (event) => {
      events.push(event);
      const hits = waiters.filter((w) => w.test(event));
      for (const w of hits) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(event);
      }
      options.emit?.(event);
    },
  });
  const next: Harness['next'] = (type, match) => {
    const test = (e: AgentEvent): boolean => e.type === type && (!match || match(e as never));
    const seen = events.find(test);
    if (seen) return Promise.resolve(seen as never);
    return new Promise((resolve) => waiters.push({ test, resolve: resolve as (e: AgentEvent) => void }));
  };
  return {
    dir,
    store,
    agent,
    policy,
    provider,
    sessionId: session.id,
    events,
    next,
    path: () => store.path(session.id),
    pathMessages: () => store.path(session.id).flatMap((e) => (e.type === 'message' ? [e.message] : [])),
    async close() {
      await agent.dispose();
      store.close();
      if (options.dir === undefined) rmSync(dir, { recursive: true, force: true });
      // Every event a run emitted must match the shared contract the renderer parses.
      for (const event of events) AgentEvent.parse(event);
    },
  };
}

export function textOf(message: Message | undefined): string {
  const content = (message as { content?: unknown } | undefined)?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c: { type: string; text?: string }) => (c.type === 'text' ? c.text : '')).join('');
}

/** Roles and texts, compactly: "user:hi", "assistant:hello", "toolResult:echo=a". */
export function transcript(messages: readonly Message[]): string[] {
  return messages.map((m) => {
    if (m.role === 'toolResult') return `toolResult:${(m as { toolName: string }).toolName}=${textOf(m)}`;
    if (m.role === 'assistant') {
      const calls = (m as { content: { type: string; name?: string }[] }).content.filter((c) => c.type === 'toolCall').map((c) => c.name);
      return `assistant:${textOf(m)}${calls.length ? `[${calls.join(',')}]` : ''}`;
    }
    return `${m.role}:${textOf(m)}`;
  });
}
