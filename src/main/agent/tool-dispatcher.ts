import { resolve } from 'node:path';
import type { ToolCall, ToolResultMessage } from '../../shared/sessions/index.ts';
import { canonicalJson, callSignature, type ShellSandbox, ToolOutput, type ToolSpec } from '../../shared/tools/index.ts';
import { toolResultImages } from './tool-result-images.ts';
import { errorMessage } from '../errors.ts';
import type { ToolGate, ToolOrigin } from '../policy/index.ts';
import type { RunHooks } from './agent-hooks.ts';
import { capToolResult } from './cap-tool-result.ts';
import { SchemaValidatorCache } from './schema-validator-cache.ts';
import type { ToolOutputKeeper } from './tool-output-store.ts';

export { callSignature };

export interface ToolExecution {
  sessionId: string;
  /** The conversation's workspace folder: the tool's root, the same one the policy judged the call against. */
  workspaceRoot: string;
  toolCallId: string;
  signal: AbortSignal;
  /** For a shell tool: the sandbox the gate decided it runs in, sent with the call. Absent for other tools. */
  sandbox?: ShellSandbox;
  /** True for a child agent's call (set by the child's tool source), passed on to the tool. */
  subagent?: boolean;
  /** Progress text for the UI (tool_execution_update); never sent to the model. */
  onUpdate(text: string): void;
}

/** Where tools come from (the plugin runtime's tool registry, adapted by the composition root). */
export interface ToolSource {
  list(): readonly ToolSpec[] | Promise<readonly ToolSpec[]>;
  /** May throw or reject: that becomes an error result the model can read. */
  execute(name: string, args: Record<string, unknown>, execution: ToolExecution): Promise<ToolOutput>;
  /**
   * Who contributed a tool, for the policy (a user plugin's `readOnly` is not trusted until confirmed).
   * Absent: the tools are the app's own.
   */
  origin?(name: string): ToolOrigin | undefined;
  /**
   * True for a tool that settles soon after its signal aborts with what it has so far (the task tool's
   * finished children): its own result is kept instead of the "stopped" one. Absent: none does.
   */
  answersStop?(name: string): boolean;
}

export const emptyToolSource: ToolSource = {
  list: () => [],
  execute: async (name) => {
    throw new Error(`There is no tool named ${name}.`);
  },
};

export type ToolStatus = 'ok' | 'error' | 'denied';

export interface DispatchRequest {
  sessionId: string;
  workspaceRoot: string;
  calls: readonly ToolCall[];
  specs: readonly ToolSpec[];
  /** Tool calls of the assistant turn before this one: an identical call is denied. */
  previousCalls: readonly ToolCall[];
  signal: AbortSignal;
  onStart?(call: ToolCall): void;
  onUpdate?(call: ToolCall, text: string): void;
  /** Called once per call, in call order, as soon as that call and every call before it are done. */
  onResult?(result: ToolResultMessage, index: number): void;
  /**
   * The plugins' tool_call hooks (after the schema check, before the policy: they may block the call or
   * change its arguments, which are then checked and judged again) and tool_result hooks (on a result of a
   * call that ran, before it is stored).
   */
  hooks?: RunHooks;
}

export interface ToolDispatcherOptions {
  tools: ToolSource;
  gate: ToolGate;
  clock?: () => number;
  /** Compiled parameter schemas (bounded); default: 256 of them, within the declaration caps. */
  schemas?: SchemaValidatorCache;
  /**
   * Where the full text of a result cut at `maxResultChars` (default MAX_TOOL_RESULT_CHARS) is kept.
   * Default: nowhere (the result says so).
   */
  outputs?: ToolOutputKeeper;
  maxResultChars?: number;
}

/** Builds the one result a call gets. */
export function toolResult(call: ToolCall, status: ToolStatus, text: string, timestamp: number): ToolResultMessage {
  return { role: 'toolResult', toolCallId: call.id, toolName: call.name, content: [{ type: 'text', text }], isError: status !== 'ok', status, timestamp };
}

/**
 * Runs one assistant message's tool calls: each is checked (known tool, arguments valid against its JSON
 * schema, not a repeat of the previous turn, allowed by the gate), then all run in parallel, except that
 * calls of a `parallel: false` tool, and calls changing the same path, run one after another. Exactly one
 * result per call, in call order however they finish, its text cut at `maxResultChars`; nothing here
 * throws for a failing tool.
 */
export class ToolDispatcher {
  readonly #tools: ToolSource;
  readonly #gate: ToolGate;
  readonly #clock: () => number;
  readonly #schemas: SchemaValidatorCache;
  readonly #cap: { maxChars?: number; keeper?: ToolOutputKeeper };

  constructor(options: ToolDispatcherOptions) {
    this.#tools = options.tools;
    this.#gate = options.gate;
    this.#clock = options.clock ?? Date.now;
    this.#schemas = options.schemas ?? new SchemaValidatorCache();
    this.#cap = {
      ...(options.maxResultChars !== undefined ? { maxChars: options.maxResultChars } : {}),
      ...(options.outputs ? { keeper: options.outputs } : {}),
    };
  }

  async dispatch(request: DispatchRequest): Promise<ToolResultMessage[]> {
    const previous = new Set(request.previousCalls.map(callSignature));
    // Calls that share a turn key (see turnKeys) run in call order: each waits for the ones before it to finish.
    const tails = new Map<string, Promise<void>>();
    const running = request.calls.map((call) => {
      request.onStart?.(call);
      const keys = turnKeys(call, request);
      const before = Promise.all(keys.map((key) => tails.get(key)));
      const { done, finished } = turnDone();
      for (const key of keys) tails.set(key, done);
      // Every result, whichever tool (MCP's included) and whatever the hooks made of it, within one cap.
      return this.#runOne(call, request, previous, before)
        .finally(finished)
        .then((result) => capToolResult(result, request.sessionId, this.#cap));
    });
    const results: ToolResultMessage[] = [];
    for (const [index, pending] of running.entries()) {
      const result = await pending;
      results.push(result);
      request.onResult?.(result, index);
    }
    return results;
  }

  async #runOne(call: ToolCall, request: DispatchRequest, previous: ReadonlySet<string>, before: Promise<unknown>): Promise<ToolResultMessage> {
    const denied = (text: string): ToolResultMessage => toolResult(call, 'denied', text, this.#clock());
    const failed = (text: string): ToolResultMessage => toolResult(call, 'error', text, this.#clock());
    if (request.signal.aborted) return failed('Not run: the run was stopped.');
    const spec = request.specs.find((s) => s.name === call.name);
    if (!spec) {
      const names = request.specs.map((s) => s.name).join(', ');
      return denied(`There is no tool named ${call.name}. ${names ? `Available tools: ${names}.` : 'No tools are available.'}`);
    }
    const invalid = this.#validate(spec, call.arguments);
    if (invalid !== null) return denied(invalid);
    if (previous.has(callSignature(call))) {
      return denied(
        `This exact call (${call.name} with the same arguments) was already made in your previous turn; use its result above or change the arguments.`,
      );
    }
    let args = call.arguments;
    if (request.hooks) {
      const { hooks, onError } = request.hooks;
      const hooked = await hooks.run('tool_call', { sessionId: request.sessionId, toolCallId: call.id, toolName: call.name, args }, { onError });
      // A hook that failed blocks the call (fails closed); its reason says what went wrong.
      if (hooked.stop)
        return denied(hooked.stop.failed ? `Blocked: ${hooked.stop.reason}` : `Blocked by the plugin '${hooked.stop.pluginId}': ${hooked.stop.reason}`);
      if (hooked.payload.args !== args) {
        args = hooked.payload.args;
        const changed = this.#validate(spec, args);
        if (changed !== null) return denied(`Not run: a plugin changed the arguments of ${call.name}, and the changed ones do not fit its schema. ${changed}`);
      }
    }
    let sandbox: ShellSandbox | undefined;
    try {
      const origin = this.#tools.origin?.(call.name);
      const decision = await this.#gate.authorize(
        { sessionId: request.sessionId, workspaceRoot: request.workspaceRoot, tool: spec, toolCallId: call.id, args, ...(origin ? { origin } : {}) },
        request.signal,
      );
      if (!decision.allowed) return denied(decision.reason);
      sandbox = decision.sandbox;
    } catch (e) {
      return denied(`The tool policy could not decide, so ${call.name} was not run: ${errorMessage(e)}`);
    }
    await before;
    if (request.signal.aborted) return failed('Not run: the run was stopped.');
    const result = await this.#execute(args === call.arguments ? call : { ...call, arguments: args }, request, sandbox);
    if (sandbox && sandbox.unsandboxed !== true && sandboxReport(result) === 'unavailable') {
      // The probe said a sandbox starts, yet this one did not: the result says why; from now on none is assumed.
      try {
        this.#gate.sandboxUnavailable?.(result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'));
      } catch {
        // The result stands whatever the gate does with the report.
      }
    }
    return request.hooks && !request.signal.aborted ? this.#afterHooks(result, args, request, request.hooks) : result;
  }

  /** The tool_result hooks over a result; the result they leave is checked again as a ToolOutput. */
  async #afterHooks(
    result: ToolResultMessage,
    args: Record<string, unknown>,
    request: DispatchRequest,
    { hooks, onError }: RunHooks,
  ): Promise<ToolResultMessage> {
    const { content, isError, details } = result;
    // A result's images pass to the hooks as they are; what a hook answers is text (ToolOutput).
    const output: ToolOutput = { content: content as ToolOutput['content'], isError, ...(details !== undefined ? { details } : {}) };
    const hooked = await hooks.run(
      'tool_result',
      { sessionId: request.sessionId, toolCallId: result.toolCallId, toolName: result.toolName, args, result: output },
      { onError },
    );
    if (hooked.payload.result === output) return result;
    const changed = hooked.payload.result;
    const next: ToolResultMessage = { ...result, content: changed.content, isError: changed.isError, status: changed.isError ? 'error' : 'ok' };
    if (changed.details !== undefined) next['details'] = changed.details;
    else delete next['details'];
    return next;
  }

  async #execute(call: ToolCall, request: DispatchRequest, sandbox: ShellSandbox | undefined): Promise<ToolResultMessage> {
    const { signal } = request;
    let onAbort: (() => void) | undefined;
    const answersStop = this.#tools.answersStop?.(call.name) === true;
    const stopped = new Promise<ToolResultMessage>((res) => {
      if (answersStop) return;
      onAbort = () => res(toolResult(call, 'error', `${call.name} was stopped before it finished because the run was stopped.`, this.#clock()));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    const execution: ToolExecution = {
      sessionId: request.sessionId,
      workspaceRoot: request.workspaceRoot,
      toolCallId: call.id,
      signal,
      ...(sandbox ? { sandbox } : {}),
      onUpdate: (text) => {
        if (!signal.aborted) request.onUpdate?.(call, text);
      },
    };
    const ran = Promise.resolve()
      .then(() => this.#tools.execute(call.name, call.arguments, execution))
      .then(
        (raw) => {
          const output = ToolOutput.safeParse(raw);
          if (!output.success) return toolResult(call, 'error', `${call.name} returned a result in the wrong shape, so it cannot be shown.`, this.#clock());
          const { content, images, isError, details } = output.data;
          const status: ToolStatus = isError ? 'error' : 'ok';
          const result: ToolResultMessage = {
            role: 'toolResult',
            toolCallId: call.id,
            toolName: call.name,
            content: images ? [...content, ...toolResultImages(images)] : content,
            isError,
            status,
            timestamp: this.#clock(),
          };
          if (details !== undefined) result['details'] = details;
          return result;
        },
        (e: unknown) => toolResult(call, 'error', `${call.name} failed: ${errorMessage(e)}`, this.#clock()),
      );
    try {
      return await Promise.race([ran, stopped]);
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  /** null when the arguments fit the tool's schema; otherwise the reason, as the model should read it. */
  #validate(spec: ToolSpec, args: Record<string, unknown>): string | null {
    const compiled = this.#schemas.compile(spec.parameters, canonicalJson);
    if (!compiled.ok) return `${spec.name} cannot be called: ${compiled.reason}.`;
    const { validate } = compiled;
    if (validate(args)) return null;
    const why = this.#schemas.errorsText(validate);
    return `The arguments for ${spec.name} do not match its schema: ${why}. Fix them and call it again.`;
  }
}

/** A promise and the function that settles it: a call's place in the queues of its turn keys. */
function turnDone(): { done: Promise<void>; finished: () => void } {
  // The executor runs at once, so `finished` is set before this returns.
  let finished!: () => void;
  const done = new Promise<void>((res) => (finished = res));
  return { done, finished };
}

/**
 * What a call must not run alongside within its turn: its tool, for a tool declared `parallel: false`;
 * each path it names, for a tool that changes things (resolved against the workspace, so `a.txt` and
 * `./a.txt` are one path).
 */
function turnKeys(call: ToolCall, request: DispatchRequest): string[] {
  const spec = request.specs.find((s) => s.name === call.name);
  if (!spec) return [];
  const keys = spec.parallel === false ? [`tool:${spec.name}`] : [];
  if (spec.readOnly) return keys;
  for (const param of spec.pathParams ?? []) {
    const value = call.arguments[param];
    const paths = Array.isArray(value) ? value : [value];
    for (const p of paths) if (typeof p === 'string' && p !== '') keys.push(`path:${resolve(request.workspaceRoot, p)}`);
  }
  return keys;
}

/** What a shell tool's result says about its sandbox (`details.sandbox`), or null when it says nothing. */
function sandboxReport(result: ToolResultMessage): string | null {
  const details = result['details'];
  if (typeof details !== 'object' || details === null) return null;
  const said = (details as Record<string, unknown>)['sandbox'];
  return typeof said === 'string' ? said : null;
}
