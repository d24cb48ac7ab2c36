import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AgentEvent } from '../../shared/agent/index.ts';
import { EvalRunRecord, EvalSuite, type EvalTask } from '../../shared/evals/index.ts';
import { contentText, type Entry, isAssistant, isToolResult, type Message } from '../../shared/sessions/index.ts';
import type { App } from '../app.ts';
import { AmberError } from '../errors.ts';
import { isInside } from '../is-inside.ts';
import { runChecks } from './eval-checks.ts';
import { createJudge } from './eval-judge.ts';
import type { ModelName } from './model-name.ts';

/** A suite read from its folder: the suite, and the folder its fixtures are in. */
export interface LoadedSuite {
  suite: EvalSuite;
  dir: string;
}

/** Reads and checks `suite.json` in a folder (or the file itself); errors name the file and the field. */
export function loadSuite(path: string): LoadedSuite {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'suite.json') : path;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new AmberError('invalid_input', `Cannot read the suite ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = EvalSuite.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AmberError('invalid_input', `The suite ${file} is not valid: ${issue.path.join('.') || '(top)'} ${issue.message}.`);
  }
  const dir = realpathSync(resolve(file, '..'));
  for (const task of parsed.data.tasks) {
    if (task.fixture === undefined) continue;
    const fixture = resolve(dir, task.fixture);
    if (!existsSync(fixture) || !statSync(fixture).isDirectory() || !isInside(dir, realpathSync(fixture)))
      throw new AmberError(
        'invalid_input',
        `The suite ${file} is not valid: task ${task.id}'s fixture ${task.fixture} is not a folder inside the suite's folder.`,
      );
  }
  return { suite: parsed.data, dir };
}

export interface EvalOptions {
  app: App;
  loaded: LoadedSuite;
  models: readonly ModelName[];
  /** The model that grades rubric checks, as provider/model (else the suite's). */
  judge?: string;
  /** Tries per task (a task's own `repeat` wins). */
  repeat?: number;
  concurrency?: number;
  /** Where the eval's workspaces and its JSON Lines report go. */
  outDir: string;
  evalId: string;
  /** Runs already recorded (a resumed eval): they are not run again. */
  done?: readonly EvalRunRecord[];
  signal?: AbortSignal;
  onRecord?(record: EvalRunRecord, finished: number, total: number): void;
  clock?: () => number;
}

interface Planned {
  task: EvalTask;
  model: ModelName;
  attempt: number;
}

const key = (taskId: string, model: string, attempt: number) => `${taskId}\u0000${model}\u0000${attempt}`;
const modelText = (m: ModelName) => `${m.provider}/${m.modelId}`;
const slug = (text: string) => text.replace(/[^a-zA-Z0-9._-]+/g, '_').slice(0, 80);

/**
 * Runs every task of a suite with every model, `repeat` times, through the app's own core (agent loop,
 * plugins, policy, sandbox), `concurrency` at once. Each run is a conversation of its own in a fresh copy of
 * the task's fixture, tagged with the eval; its record is appended to `runs.jsonl` as soon as it is scored,
 * so an interrupted eval keeps what finished and a resumed one skips it.
 */
export async function runEval(o: EvalOptions): Promise<EvalRunRecord[]> {
  const { suite } = o.loaded;
  const clock = o.clock ?? Date.now;
  mkdirSync(o.outDir, { recursive: true });
  const log = join(o.outDir, 'runs.jsonl');
  const finished = new Set((o.done ?? []).map((r) => key(r.taskId, r.model, r.attempt)));
  const plan: Planned[] = [];
  for (const task of suite.tasks)
    for (const model of o.models)
      for (let attempt = 1; attempt <= (task.repeat ?? o.repeat ?? suite.repeat ?? 1); attempt++)
        if (!finished.has(key(task.id, modelText(model), attempt))) plan.push({ task, model, attempt });
  const total = plan.length + finished.size;
  const records: EvalRunRecord[] = [...(o.done ?? [])];
  let next = 0;
  const worker = async () => {
    while (next < plan.length && !o.signal?.aborted) {
      const item = plan[next++]!;
      const record = await runOne(o, item, clock);
      if (record.end === 'stopped') return;
      records.push(record);
      appendFileSync(log, `${JSON.stringify(record)}\n`);
      o.onRecord?.(record, records.length, total);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency ?? 1, 16)) }, worker));
  return records;
}

async function runOne(o: EvalOptions, { task, model, attempt }: Planned, clock: () => number): Promise<EvalRunRecord> {
  const { app } = o;
  const limits = { ...o.loaded.suite.limits, ...task.limits };
  const workspace = join(o.outDir, 'workspaces', `${slug(task.id)}-${slug(modelText(model))}-${attempt}`);
  mkdirSync(workspace, { recursive: true });
  if (task.fixture !== undefined) cpSync(resolve(o.loaded.dir, task.fixture), workspace, { recursive: true });
  const root = realpathSync(workspace);
  const session = app.sessions.create({ title: `Eval ${o.loaded.suite.name}: ${task.id} (${modelText(model)} #${attempt})`, cwd: root });
  app.sessions.append(session.id, { type: 'custom', customType: 'eval', data: { evalId: o.evalId, taskId: task.id, model: modelText(model), attempt } });
  if (task.mode) app.policy.setMode(session.id, task.mode);
  const before = app.sessions.leaf(session.id);

  // Live limits: model calls, tokens and dollars are counted as replies end; the wall clock by a timer.
  let steps = 0;
  let tokens = 0;
  let dollars = 0;
  let firstTokenAt: number | null = null;
  let end: EvalRunRecord['end'] = 'done';
  let error: string | undefined;
  const started = clock();
  const stop = (why: EvalRunRecord['end']) => {
    if (end === 'done') end = why;
    app.agent.abort(session.id);
  };
  const watch = app.agent.onDidEmit((event: AgentEvent) => {
    if (event.sessionId !== session.id) return;
    if (event.type === 'message_update' && firstTokenAt === null) firstTokenAt = clock();
    if (event.type !== 'message_end' || event.entry.type !== 'message' || !isAssistant(event.entry.message)) return;
    steps++;
    const usage = event.entry.message.usage;
    tokens += (usage?.input ?? 0) + (usage?.output ?? 0);
    dollars += usage?.cost?.total ?? 0;
    if (
      (limits.steps !== undefined && steps >= limits.steps && event.entry.message.stopReason === 'toolUse') ||
      (limits.tokens !== undefined && tokens > limits.tokens) ||
      (limits.dollars !== undefined && dollars > limits.dollars)
    )
      stop('limit');
  });
  const timer = limits.seconds !== undefined ? setTimeout(() => stop('timeout'), limits.seconds * 1000) : undefined;
  const onAbort = () => stop('stopped');
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (const turn of task.turns ?? [task.prompt!]) {
      if (end !== 'done') break;
      const result = await app.agent.prompt(session.id, turn, { model });
      if (result.reason === 'error' && end === 'done') {
        end = 'error';
        error = result.error ?? 'The run failed.';
      }
    }
  } finally {
    watch.dispose();
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
  }

  const path = app.sessions.path(session.id);
  const appended: Entry[] = before === null ? path : path.slice(path.findIndex((e) => e.id === before) + 1);
  const messages: Message[] = appended.flatMap((e) => (e.type === 'message' ? [e.message] : []));
  const replies = messages.filter(isAssistant);
  const results = new Map(messages.filter(isToolResult).map((m) => [m.toolCallId, m.status ?? (m.isError ? 'error' : 'ok')]));
  const calls = replies.flatMap((m) =>
    m.content.flatMap((p) =>
      p.type === 'toolCall' ? [{ name: p.name, args: (p.arguments ?? {}) as Record<string, unknown>, status: results.get(p.id) ?? 'none' }] : [],
    ),
  );
  const reply =
    replies
      .map((m) => contentText(m.content))
      .filter((t) => t.trim() !== '')
      .at(-1) ?? '';
  const trace = {
    prompt: (task.turns ?? [task.prompt!]).join('\n\n'),
    reply,
    workspace: root,
    calls,
    steps: replies.length,
    denied: calls.filter((c) => c.status === 'denied').length,
  };
  const judge = createJudge(app.resolveProvider, o.judge ?? o.loaded.suite.judge, o.signal);
  const checks = await runChecks(task.checks, trace, (command) => checkCommand(app, session.id, root, command), judge);
  const weight = checks.reduce((a, c) => a + c.weight, 0);
  const score = weight === 0 ? 0 : checks.reduce((a, c) => a + (c.passed ? c.weight : 0), 0) / weight;
  return {
    evalId: o.evalId,
    taskId: task.id,
    model: modelText(model),
    attempt,
    sessionId: session.id,
    end,
    ...(error !== undefined ? { error } : {}),
    passed: end === 'done' && checks.every((c) => c.passed),
    score,
    checks,
    steps: replies.length,
    toolCalls: calls.length,
    denied: trace.denied,
    tokensIn: replies.reduce((a, m) => a + (m.usage?.input ?? 0), 0),
    tokensOut: replies.reduce((a, m) => a + (m.usage?.output ?? 0), 0),
    cost: replies.reduce((a, m) => a + (m.usage?.cost?.total ?? 0), 0),
    ms: clock() - started,
    firstTokenMs: firstTokenAt === null ? null : firstTokenAt - started,
  };
}

/** A check's command, run by the shell tool in the run's workspace inside its write-mode sandbox without network. */
async function checkCommand(app: App, sessionId: string, workspace: string, command: string): Promise<{ ok: boolean; output: string }> {
  const tools = app.plugins.registries.tools;
  if (!tools.get('bash')) return { ok: false, output: 'no shell tool is available (the workspace tools plugin is off)' };
  const out = await tools.execute('bash', { command, timeout: 120 }, undefined, {
    sessionId,
    workspace,
    denied: [app.dataDir],
    sandbox: { mode: 'write', network: false },
  });
  const details = (out as { details?: { exitCode?: number | null } }).details;
  return { ok: !out.isError && (details?.exitCode ?? 0) === 0, output: contentText(out.content) };
}

/** The records of an earlier, interrupted run of the same eval (lines that do not parse are left out). */
export function readRecords(outDir: string): EvalRunRecord[] {
  const log = join(outDir, 'runs.jsonl');
  if (!existsSync(log)) return [];
  const out: EvalRunRecord[] = [];
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // A line cut by a crash: that run is done again.
      continue;
    }
    const record = EvalRunRecord.safeParse(parsed);
    if (record.success) out.push(record.data);
  }
  return out;
}

export function writeReport(outDir: string, name: string, text: string): string {
  const file = join(outDir, name);
  writeFileSync(file, text);
  return file;
}
