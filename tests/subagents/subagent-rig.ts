// A core for sub-agent tests: createApp on a temp folder whose model is the loopback provider server, routed
// by a function of each request (the parent's, a child's, a silent confirm turn), with test tools of its own.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ProviderResolver, ToolSource } from '../../src/main/agent/index.ts';
import type { AppOptions } from '../../src/main/app.ts';
import { CHILD_PREAMBLE } from '../../src/main/subagents/index.ts';
import { createOpenAiCompatibleStream } from '../../src/plugins/openai-compatible/index.ts';
import type { CoreSettingKey, CoreSettingValue } from '../../src/shared/settings/index.ts';
import { type AppUnderTest, openApp } from '../fixtures/app-under-test.ts';
import { openAiStream, type ProviderServer, type RecordedRequest, type Reply, startProviderServer } from '../fixtures/provider-server.ts';

export const MODEL = { provider: 'loopback', modelId: 'fixture-model' };

interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** What a request to the model is, as the scripts route it. */
export interface ModelRequest {
  raw: RecordedRequest;
  system: string;
  /** A child agent's request (its system message carries the child preamble). */
  child: boolean;
  /** The first user message: for a child, its task prompt. */
  prompt: string;
  /** The silent "is the task finished?" turn. */
  confirm: boolean;
  tools: string[];
  /** Tool results so far in this conversation, oldest first. */
  results: string[];
  /** Model replies so far in this conversation. */
  turns: number;
  /** Model replies since the user's last message. */
  sinceUser: number;
  /** The user's last message. */
  lastUser: string;
}

export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((p) => (typeof p === 'object' && p !== null && 'text' in p ? String((p as { text: unknown }).text) : '')).join('');
  return '';
}

export function readRequest(raw: RecordedRequest): ModelRequest {
  const body = raw.body as { messages: WireMessage[]; tools?: { function: { name: string } }[] };
  const messages = body.messages;
  const system = messages[0]?.role === 'system' ? textOf(messages[0].content) : '';
  const users = messages.filter((m) => m.role === 'user');
  const last = messages.at(-1);
  return {
    raw,
    system,
    child: system.includes(CHILD_PREAMBLE),
    prompt: textOf(users[0]?.content),
    confirm: last?.role === 'user' && textOf(last.content).includes('Answer with exactly one word'),
    tools: (body.tools ?? []).map((t) => t.function.name),
    results: messages.filter((m) => m.role === 'tool').map((m) => textOf(m.content)),
    turns: messages.filter((m) => m.role === 'assistant').length,
    sinceUser: messages.slice(messages.findLastIndex((m) => m.role === 'user') + 1).filter((m) => m.role === 'assistant').length,
    lastUser: textOf(users.at(-1)?.content),
  };
}

const nothingScripted = (): Reply => say('nothing scripted');

let callIds = 0;
export const say = (text: string, usage?: { input: number; output: number }): Reply => openAiStream(usage ? { text, usage } : { text });
export const call = (name: string, args: Record<string, unknown>): Reply =>
  openAiStream({ toolCalls: [{ id: `call_${++callIds}_${name}`, name, arguments: args }] });
export const task = (tasks: { description: string; prompt: string; agent?: string }[], mode: 'serial' | 'parallel' = 'parallel'): Reply =>
  call('task', { tasks, mode });

export interface SubagentRig extends AppUnderTest {
  server: ProviderServer;
  workspace: string;
  outside: string;
  parentId: string;
  requests: ModelRequest[];
  /** Sets the model's routing: the reply to each request. Confirm turns answer "done" unless the route handles them. */
  route(fn: (request: ModelRequest) => Reply | Promise<Reply>): void;
  set<K extends CoreSettingKey>(key: K, value: CoreSettingValue<K>): void;
  /** The model the core talks to (the loopback server). */
  resolveProvider: ProviderResolver;
  /** Pids of the processes the `wait` tool started. */
  pids: number[];
}

/**
 * Test tools: `note` (read-only, answers at once), `write` (writes a file: the policy judges its path) and
 * `wait` (read-only, runs `sleep 60` as a real process until its call is stopped).
 */
export const testTools = (pids: number[]): ToolSource => ({
  list: () => [
    { name: 'note', description: 'Notes a thing.', parameters: { type: 'object', properties: { text: { type: 'string' } } }, readOnly: true },
    {
      name: 'write',
      description: 'Writes a file.',
      parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
      readOnly: false,
      pathParams: ['path'],
    },
    { name: 'wait', description: 'Waits.', parameters: { type: 'object', properties: {} }, readOnly: true },
  ],
  async execute(name, args, execution) {
    if (name === 'note') return { content: [{ type: 'text', text: `noted ${String(args.text)}` }], isError: false };
    if (name === 'write') {
      const path = String(args.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, String(args.content));
      return { content: [{ type: 'text', text: `wrote ${path}` }], isError: false };
    }
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    if (child.pid !== undefined) pids.push(child.pid);
    return new Promise((resolve) => {
      const stop = () => child.kill('SIGKILL');
      execution.signal.addEventListener('abort', stop, { once: true });
      child.on('exit', () => {
        execution.signal.removeEventListener('abort', stop);
        resolve({ content: [{ type: 'text', text: 'waited' }], isError: false });
      });
    });
  },
});

export async function openSubagentRig(
  options: { app?: (dir: string) => Partial<AppOptions>; subagents?: boolean; before?: (dir: string) => Promise<void> } = {},
): Promise<SubagentRig> {
  const server = await startProviderServer();
  const stream = createOpenAiCompatibleStream({ baseUrl: `${server.url}/v1`, flavor: 'custom' });
  const resolveProvider = () => ({
    stream,
    model: { id: MODEL.modelId, contextWindow: 128_000, reasoning: false, pricing: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } },
  });
  const pids: number[] = [];
  let workspace = '';
  let outside = '';
  // Whatever the core needs before it is built (a plugin runtime of the test's), in a folder of its own.
  const early = mkdtempSync(join(tmpdir(), 'amber-subagents-pre-'));
  await options.before?.(early);
  const fixture = openApp({
    prefix: 'amber-subagents-',
    before: (dir) => {
      workspace = join(dir, 'home', 'ws');
      outside = join(dir, 'elsewhere');
      mkdirSync(workspace, { recursive: true });
      mkdirSync(outside, { recursive: true });
    },
    app: (dir) => ({
      home: join(dir, 'home'),
      workspace,
      defaultModel: MODEL,
      resolveProvider,
      tools: testTools(pids),
      ...options.app?.(dir),
    }),
  });
  const requests: ModelRequest[] = [];
  let routeFn: (request: ModelRequest) => Reply | Promise<Reply> = nothingScripted;
  server.setScript(async (raw) => {
    const request = readRequest(raw);
    requests.push(request);
    if (request.confirm) return say('done');
    return routeFn(request);
  });
  const closeApp = fixture.close;
  const settings = fixture.app.settings;
  if (options.subagents !== false) settings.set('agent.subagents', true);
  const parentId = fixture.app.sessions.create({ title: 'parent', cwd: workspace }).id;
  return Object.assign(fixture, {
    server,
    workspace,
    outside,
    parentId,
    resolveProvider,
    requests,
    pids,
    route: (fn: typeof routeFn) => {
      routeFn = fn;
    },
    set: <K extends CoreSettingKey>(key: K, value: CoreSettingValue<K>) => (settings.set as (k: K, v: CoreSettingValue<K>) => void)(key, value),
    close: async () => {
      await closeApp();
      await server.close();
      rmSync(early, { recursive: true, force: true });
    },
  });
}
