import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { GroupStdioTransport } from './group-stdio-transport.ts';
import { DEFAULT_CALL_TIMEOUT_MS, isStdio, type McpServerEntry } from './mcp-config.ts';
import { answerElicitations, type McpElicitationHandler } from './mcp-elicitation.ts';
import { type McpOAuthProvider, SignInNeeded } from './mcp-oauth-provider.ts';
import { OAuthRefusal } from './oauth-fetch.ts';

// One MCP server: connect (stdio, or streamable HTTP falling back to the older HTTP+SSE), initialize, list
// tools, resources and prompts (every page), follow their list_changed notifications, call. A server that
// closes or crashes fails its calls in flight at once, naming the server; the next call reconnects, after
// a backoff that grows with each failure in a row (never a tight loop).

/** `unauthorized`: an HTTP server refused Amber (401/403); it stays so until its config changes or it is restarted. */
export type McpServerState = 'off' | 'connecting' | 'connected' | 'failed' | 'unauthorized';

export interface McpServerStatus {
  name: string;
  source: McpServerEntry['source'];
  transport: 'stdio' | 'http' | 'sse';
  state: McpServerState;
  /** Why it failed, in a sentence, with the end of its stderr where it has one. */
  error: string | null;
  tools: number;
  resources: number;
  prompts: number;
  /** OAuth sign-in where the server uses it (see McpServerView). */
  signIn?: 'needed' | 'waiting' | 'signedIn';
}

export interface McpTool {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown> | undefined;
}
export interface McpResource {
  uri: string;
  name: string;
  mimeType?: string | undefined;
}
export interface McpPrompt {
  name: string;
  description?: string | undefined;
  arguments?: { name: string; description?: string | undefined; required?: boolean | undefined }[] | undefined;
}

export interface McpConnectionOptions {
  /** The folder a stdio server starts in unless it names one, and the root offered to servers. */
  workspace: string;
  /** Hears every change of state or of the lists. */
  onChange?: () => void;
  /** First delay before a reconnect after a second failure in a row; doubled after each further one. */
  backoffMs?: number;
  maxBackoffMs?: number;
  clock?: () => number;
  /** Asks the user to fill a server's form (elicitation, form mode). Unset, servers are not told Amber can. */
  onElicit?: McpElicitationHandler;
  /** An HTTP server's OAuth client (mcp-oauth-provider.ts); unused when the server has an Authorization header of its own. */
  oauth?: McpOAuthProvider;
}

const MAX_PAGES = 50;
/** The SDK's own per-request limit for a tool call, out of the way: McpConnection.callTool keeps the call's limit itself. */
const NO_SDK_TIMEOUT_MS = 2_000_000_000;

/** A tool call in flight: main's id for it (when it has one), its stop signal, and its time limit's pause and resume. */
export interface RunningCall {
  callId?: string | undefined;
  signal?: AbortSignal | undefined;
  pause(): void;
  resume(): void;
}
/** For initialize and each list page, whatever the per-call timeout. */
const CONNECT_TIMEOUT_MS = 30_000;

export class McpConnection {
  readonly entry: McpServerEntry;
  tools: McpTool[] = [];
  resources: McpResource[] = [];
  prompts: McpPrompt[] = [];
  readonly #options: McpConnectionOptions;
  readonly #clock: () => number;
  #state: McpServerState = 'off';
  #error: string | null = null;
  #transportKind: McpServerStatus['transport'];
  #client: Client | null = null;
  #transport: Transport | null = null;
  #connecting: Promise<void> | null = null;
  /** Bumped on every connect and disconnect, so a late close of an old connection changes nothing. */
  #generation = 0;
  #failures = 0;
  #nextAttemptAt = 0;
  /** The end of the last stdio server's stderr, kept after it exited. */
  #lastStderr: () => string = () => '';
  /** The tool calls running on this server, oldest first: a form the server asks for belongs to the newest. */
  #running: RunningCall[] = [];

  constructor(entry: McpServerEntry, options: McpConnectionOptions) {
    this.entry = entry;
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
    this.#transportKind = isStdio(entry.config) ? 'stdio' : 'http';
  }

  get name(): string {
    return this.entry.name;
  }

  get state(): McpServerState {
    return this.#state;
  }

  get timeoutMs(): number {
    return this.entry.config.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  }

  /** Whether the server offers resources (and so a read_resource tool). */
  get hasResources(): boolean {
    return this.#client?.getServerCapabilities()?.resources !== undefined || this.resources.length > 0;
  }

  /** The pid of a stdio server's first process, while it runs. */
  get pid(): number | undefined {
    return this.#transport instanceof GroupStdioTransport ? this.#transport.pid : undefined;
  }

  status(): McpServerStatus {
    return {
      name: this.name,
      source: this.entry.source,
      transport: this.#transportKind,
      state: this.#state,
      error: this.#error,
      tools: this.tools.length,
      resources: this.resources.length,
      prompts: this.prompts.length,
      ...(this.#oauthState() ? { signIn: this.#oauthState()! } : {}),
    };
  }

  /** The server's OAuth client, where it signs in with one. */
  get oauth(): McpOAuthProvider | undefined {
    return this.#options.oauth;
  }

  #oauthState(): McpServerStatus['signIn'] | null {
    return this.#options.oauth?.signInState(this.#state === 'connected') ?? null;
  }

  /** Connects unless connected; resolves once it is connected or has failed (never throws). */
  connect(): Promise<void> {
    if (this.#state === 'connected') return Promise.resolve();
    this.#connecting ??= this.#connect().finally(() => (this.#connecting = null));
    return this.#connecting;
  }

  /** Closes the connection and ends a stdio server's processes; the server stays off until connected again. */
  async disconnect(): Promise<void> {
    this.#generation++;
    const transport = this.#transport;
    this.#client = null;
    this.#transport = null;
    this.#setState('off', null);
    await transport?.close().catch(() => {});
  }

  async restart(): Promise<void> {
    await this.disconnect();
    this.#failures = 0;
    this.#nextAttemptAt = 0;
    await this.connect();
  }

  /** For the plugin's own exit: stdio servers' process groups are killed at once. */
  killNow(): void {
    if (this.#transport instanceof GroupStdioTransport) this.#transport.killNow();
  }

  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: {
      signal?: AbortSignal | undefined;
      onProgress?: ((progress: number, total: number | undefined, message: string | undefined) => void) | undefined;
      /** Main's id of the tool call, for a form the server asks for while it runs. */
      callId?: string | undefined;
    } = {},
  ): Promise<{ content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown }> {
    const client = await this.#ready();
    // The call's time limit, counted again from each progress report, and not while a form of the server waits for
    // the user (a person may take longer than a server would): Amber's own timer, not the SDK's.
    const limit = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const arm = () => {
      clearTimeout(timer);
      if (done) return;
      timer = setTimeout(() => limit.abort(new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: this.timeoutMs })), this.timeoutMs);
    };
    const running: RunningCall = { callId: options.callId, signal: options.signal, pause: () => clearTimeout(timer), resume: arm };
    this.#running.push(running);
    arm();
    try {
      return await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: options.signal ? AbortSignal.any([options.signal, limit.signal]) : limit.signal,
        timeout: NO_SDK_TIMEOUT_MS,
        ...(options.onProgress
          ? {
              onprogress: (p: { progress: number; total?: number; message?: string }) => {
                if (!limit.signal.aborted) arm();
                options.onProgress!(p.progress, p.total, p.message);
              },
            }
          : {}),
      });
    } catch (e) {
      if (!options.signal?.aborted) this.#dropIfTransportFailed(e);
      throw this.#failure(`did not complete the call to '${tool}'`, e);
    } finally {
      done = true;
      clearTimeout(timer);
      this.#running = this.#running.filter((r) => r !== running);
    }
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<unknown[]> {
    const client = await this.#ready();
    try {
      return (await client.readResource({ uri }, { timeout: this.timeoutMs, ...(signal ? { signal } : {}) })).contents;
    } catch (e) {
      throw this.#failure(`could not read the resource ${uri}`, e);
    }
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<{ messages: { role: string; content: unknown }[]; description?: string | undefined }> {
    const client = await this.#ready();
    try {
      return await client.getPrompt({ name, arguments: args }, { timeout: this.timeoutMs });
    } catch (e) {
      throw this.#failure(`could not get the prompt '${name}'`, e);
    }
  }

  // ── internals ───────────────────────────────────────────────────────────

  /** The live client, reconnecting a failed server when its backoff has passed; else fails naming the server. */
  async #ready(): Promise<Client> {
    if (this.#state === 'unauthorized') throw new Error(this.#error ?? `The MCP server '${this.name}' needs authorization.`);
    if (this.#state === 'off') throw new Error(`The MCP server '${this.name}' is disconnected; connect it with /mcp connect ${this.name}.`);
    if (this.#state === 'failed') {
      const wait = this.#nextAttemptAt - this.#clock();
      if (wait > 0)
        throw new Error(`The MCP server '${this.name}' is not connected (${this.#error ?? 'it failed'}); Amber tries again in ${Math.ceil(wait / 1000)} s.`);
    }
    if (this.#state !== 'connected') await this.connect();
    if (this.#state !== 'connected' || !this.#client) throw new Error(this.#error ?? `The MCP server '${this.name}' is not connected.`);
    return this.#client;
  }

  async #connect(): Promise<void> {
    const generation = ++this.#generation;
    this.#setState('connecting', null);
    let transport: Transport | null = null;
    try {
      const { client, transport: t } = await this.#open(generation);
      transport = t;
      if (generation !== this.#generation) {
        await t.close().catch(() => {});
        return;
      }
      this.#client = client;
      this.#transport = t;
      await this.#refreshAll(client);
      if (generation !== this.#generation) return;
      this.#failures = 0;
      this.#setState('connected', null);
    } catch (e) {
      if (generation !== this.#generation) return;
      await (transport ?? this.#transport)?.close().catch(() => {});
      this.#client = null;
      this.#transport = null;
      const refused = this.#refused(e);
      if (refused !== null) return this.#unauthorized(refused, e);
      const tail = this.#lastStderr().trim();
      this.#fail(`The MCP server '${this.name}' could not be connected: ${describe(e)}${tail ? `; its last words: ${tail.slice(-800)}` : ''}`);
    }
  }

  async #open(generation: number): Promise<{ client: Client; transport: Transport }> {
    const config = this.entry.config;
    const connectOptions = { timeout: CONNECT_TIMEOUT_MS };
    if (isStdio(config)) {
      // Servers are shared by every conversation: one without a folder of its own starts in the default
      // workspace, never in the folder of whichever conversation happens to call it first (the home folder
      // while no conversation has made the default workspace yet).
      const cwd = config.cwd ?? (existsSync(this.#options.workspace) ? this.#options.workspace : homedir());
      if (!existsSync(cwd)) throw new Error(`its working folder ${cwd} does not exist.`);
      const transport = new GroupStdioTransport({ command: config.command, args: config.args, env: config.env, cwd });
      this.#lastStderr = () => transport.stderrTail;
      const client = this.#newClient(generation, () => transport.stderrTail);
      await client.connect(transport, connectOptions);
      return { client, transport };
    }
    const url = new URL(config.url);
    const requestInit = { headers: config.headers };
    // A server with an Authorization header of its own is signed in by that header, never by OAuth.
    const oauth = this.#options.oauth && !Object.keys(config.headers).some((h) => h.toLowerCase() === 'authorization') ? this.#options.oauth : null;
    const auth = oauth ? { authProvider: oauth, fetch: oauth.transportFetch } : {};
    const streamable = new StreamableHTTPClientTransport(url, { requestInit, ...auth });
    const client = this.#newClient(generation, () => '');
    try {
      await client.connect(streamable, connectOptions);
      this.#transportKind = 'http';
      return { client, transport: streamable };
    } catch (first) {
      await streamable.close().catch(() => {});
      // A server that refused the credentials would refuse them over the older transport too.
      if (this.#refused(first) !== null) throw first;
      // A server that only speaks the older HTTP+SSE transport answers the streamable POST with an error.
      const sse = new SSEClientTransport(url, { requestInit, ...auth });
      const legacy = this.#newClient(generation, () => '');
      try {
        await legacy.connect(sse, connectOptions);
      } catch {
        await sse.close().catch(() => {});
        throw first;
      }
      this.#transportKind = 'sse';
      return { client: legacy, transport: sse };
    }
  }

  #newClient(generation: number, stderrTail: () => string): Client {
    const elicit = this.#options.onElicit;
    const capabilities = { roots: { listChanged: false }, ...(elicit ? { elicitation: { form: {} } } : {}) };
    const client = new Client({ name: 'amber', version: '1.0.0' }, { capabilities });
    if (elicit) answerElicitations(client, this.name, elicit, () => this.#running);
    // A stdio server with a working folder of its own is offered that folder as its root.
    const root = isStdio(this.entry.config) && this.entry.config.cwd ? this.entry.config.cwd : this.#options.workspace;
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: pathToFileURL(root).href, name: 'workspace' }] }));
    const relist = (what: 'tools' | 'resources' | 'prompts') => () => {
      if (generation !== this.#generation) return;
      void this.#refresh(client, what).then(
        () => this.#options.onChange?.(),
        () => {},
      );
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, relist('tools'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, relist('resources'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, relist('prompts'));
    // oxlint-disable-next-line unicorn/prefer-add-event-listener -- the SDK's Client has no addEventListener
    client.onclose = () => {
      // While connecting, the failed connect says why; only a live connection's close is news.
      if (generation !== this.#generation || this.#state !== 'connected') return;
      this.#client = null;
      this.#transport = null;
      const tail = stderrTail().trim();
      this.#fail(`The MCP server '${this.name}' closed its connection${tail ? `; its last words: ${tail.slice(-800)}` : '.'}`);
    };
    // A malformed message is this server's error; the connection goes on where the SDK allows it.
    // oxlint-disable-next-line unicorn/prefer-add-event-listener -- as above
    client.onerror = () => {};
    return client;
  }

  async #refreshAll(client: Client): Promise<void> {
    await this.#refresh(client, 'tools');
    await this.#refresh(client, 'resources');
    await this.#refresh(client, 'prompts');
  }

  async #refresh(client: Client, what: 'tools' | 'resources' | 'prompts'): Promise<void> {
    const caps = client.getServerCapabilities() ?? {};
    const options = { timeout: CONNECT_TIMEOUT_MS };
    if (what === 'tools') {
      if (!caps.tools) return void (this.tools = []);
      const all: McpTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const r = await client.listTools(cursor ? { cursor } : {}, options);
        all.push(...(r.tools as McpTool[]));
        cursor = r.nextCursor;
        if (!cursor) break;
      }
      this.tools = all;
    } else if (what === 'resources') {
      if (!caps.resources) return void (this.resources = []);
      const all: McpResource[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const r = await client.listResources(cursor ? { cursor } : {}, options);
        all.push(...r.resources.map((x) => ({ uri: x.uri, name: x.name, mimeType: x.mimeType })));
        cursor = r.nextCursor;
        if (!cursor) break;
      }
      this.resources = all;
    } else {
      if (!caps.prompts) return void (this.prompts = []);
      const all: McpPrompt[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const r = await client.listPrompts(cursor ? { cursor } : {}, options);
        all.push(...(r.prompts as McpPrompt[]));
        cursor = r.nextCursor;
        if (!cursor) break;
      }
      this.prompts = all;
    }
  }

  /**
   * An error that is not the server's answer (the HTTP request failed, the session is gone) means the
   * connection can no longer be trusted: it is dropped, so the next call reconnects.
   */
  #dropIfTransportFailed(e: unknown): void {
    if (this.#state !== 'connected') return;
    if (e instanceof McpError && e.code !== ErrorCode.ConnectionClosed) return;
    this.#generation++;
    const transport = this.#transport;
    this.#client = null;
    this.#transport = null;
    void transport?.close().catch(() => {});
    const refused = this.#refused(e);
    if (refused !== null) return this.#unauthorized(refused, e);
    this.#fail(`The MCP server '${this.name}' could not be reached: ${describe(e)}`);
  }

  #failure(what: string, e: unknown): Error {
    // When the connection died under the call, the reason it died says more than the SDK's "Connection closed".
    const reason = this.#state === 'failed' && this.#error ? this.#error : `The MCP server '${this.name}' ${what}: ${describe(e)}`;
    return new Error(reason, { cause: e });
  }

  /** refusedStatus, and with an OAuth client, its refusals and a sign-in it needs (401). */
  #refused(e: unknown): 401 | 403 | null {
    const status = refusedStatus(e);
    if (status !== null || !this.#options.oauth) return status;
    for (let cause: unknown = e, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++)
      if (cause instanceof SignInNeeded || cause instanceof OAuthRefusal || cause instanceof OAuthError) return 401;
    return null;
  }

  /** No reconnect on the next call: the same credentials would be refused again. */
  #unauthorized(status: 401 | 403, e?: unknown): void {
    const oauth = this.#options.oauth;
    if (oauth && this.#oauthState() !== null) {
      const why = oauth.lastFailure ?? (e instanceof SignInNeeded ? null : e instanceof Error ? e.message : null);
      this.#setState(
        'unauthorized',
        `The MCP server '${this.name}' needs you to sign in${why ? `: ${why}` : ''}. Press Sign in on its row in Settings → MCP servers.`,
      );
      return;
    }
    const what =
      status === 401
        ? 'it answered 401 Unauthorized. Add an Authorization header (for example Bearer and your token) to this server in Settings → MCP servers → Edit, and save'
        : 'it answered 403 Forbidden to the credentials it was sent. Check the Authorization header of this server in Settings → MCP servers → Edit, and save';
    this.#setState('unauthorized', `The MCP server '${this.name}' needs authorization: ${what}.`);
  }

  #fail(reason: string): void {
    this.#failures++;
    const base = this.#options.backoffMs ?? 1000;
    // The first reconnect may be at once (the next call); each further failure in a row waits longer.
    const delay = this.#failures <= 1 ? 0 : Math.min(this.#options.maxBackoffMs ?? 30_000, base * 2 ** (this.#failures - 2));
    this.#nextAttemptAt = this.#clock() + delay;
    this.#setState('failed', reason);
  }

  #setState(state: McpServerState, error: string | null): void {
    this.#state = state;
    this.#error = error;
    this.#options.onChange?.();
  }
}

/** 401 or 403 when the error is an HTTP server refusing Amber's credentials (or the SDK's UnauthorizedError), else null. */
export function refusedStatus(e: unknown): 401 | 403 | null {
  for (let cause: unknown = e, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof UnauthorizedError) return 401;
    if (cause instanceof StreamableHTTPError || cause instanceof SseError) {
      if (cause.code === 401 || cause.code === 403) return cause.code;
    }
  }
  return null;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
