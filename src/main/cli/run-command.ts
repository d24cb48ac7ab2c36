import { resolve } from 'node:path';
import { contentText, type Entry, isAssistant, isToolResult } from '../../shared/sessions/index.ts';
import type { App } from '../app.ts';
import { AmberError } from '../errors.ts';
import { UnattendedApprovals } from '../policy/index.ts';
import type { CliCommand, CliFlags, CliOutput } from './cli-command.ts';

const MAX_PROMPT_CHARS = 100_000;

/**
 * `amber run PROMPT`: one run of the agent in a conversation (`--session ID`, or `--new` in `--workspace
 * DIR`), with no one to ask. A tool call the policy would ask about is denied at once, unless an `--allow`
 * covers it (a tool by name, or a shell tool's command prefix: `--allow 'bash:npm test'`). Prints the
 * reply, what the tools did, and how many calls were denied for want of someone to approve them; exits 1
 * when the run failed. The plugins that are on start for the run.
 */
export const runCommand: CliCommand = {
  words: ['run'],
  args: ['PROMPT'],
  options: ['session ID', 'new', 'workspace DIR', 'allow TOOL[:PREFIX]'],
  summary: 'Run the agent once with no one to ask; --allow lets a tool or a shell prefix run.',
  core: (flags) => ({ startPlugins: false, unattended: new UnattendedApprovals(flags.allow) }),
  async run(app, [prompt], flags) {
    if (!prompt || prompt.trim() === '') throw new AmberError('invalid_input', 'Say what the agent should do, as in amber run --new "list the files".');
    if (prompt.length > MAX_PROMPT_CHARS)
      throw new AmberError('invalid_input', `The prompt is longer than ${MAX_PROMPT_CHARS.toLocaleString('en')} characters.`);
    if (flags.new === (flags.session !== undefined))
      throw new AmberError('invalid_input', 'Name the conversation with --session ID, or start one with --new (not both).');
    await app.plugins.start();
    const sessionId = conversation(app, flags, prompt);
    const model = app.sessions.branchState(sessionId).model === null ? app.defaultModel() : null;
    if (app.sessions.branchState(sessionId).model === null && !model) {
      throw new AmberError('unavailable', 'No model is set up, so the agent cannot run. Set up a provider in the app first.');
    }
    const before = app.sessions.get(sessionId).leafId;
    const result = await app.agent.prompt(sessionId, prompt, model ? { model } : {});
    // What this run added: the branch past the leaf it started from.
    const path = app.sessions.path(sessionId);
    const appended = before === null ? path : path.slice(path.findIndex((e) => e.id === before) + 1);
    return report(app, sessionId, result, appended);
  },
};

/** The conversation the run goes into, its workspace folder checked (a run cannot stop to ask for one). */
function conversation(app: App, flags: CliFlags, prompt: string): string {
  const workspace = flags.workspace !== undefined ? resolve(flags.cwd, flags.workspace) : undefined;
  if (flags.new) {
    const title = prompt.replace(/\s+/g, ' ').trim().slice(0, 60);
    return app.sessions.create({ title, cwd: app.workspaces.forNewConversation(workspace ?? null) }).id;
  }
  const sessionId = flags.session!;
  app.sessions.get(sessionId);
  if (workspace !== undefined) app.workspaces.set(sessionId, workspace);
  const current = app.workspaces.of(sessionId);
  const problem = current === null ? 'it has none' : app.workspaces.problem(current);
  if (problem !== null)
    throw new AmberError(
      'invalid_input',
      `The conversation ${sessionId} has no workspace folder it can use (${problem.replace(/\.$/, '')}); name one with --workspace DIR.`,
    );
  return sessionId;
}

function report(app: App, sessionId: string, result: { reason: string; error?: string }, appended: readonly Entry[]): CliOutput {
  const messages = appended.flatMap((e) => (e.type === 'message' ? [e.message] : []));
  const reply =
    messages
      .filter(isAssistant)
      .map((m) => contentText(m.content))
      .filter((t) => t.trim() !== '')
      .at(-1) ?? '';
  const toolCalls = messages.filter(isToolResult).map((m) => ({ name: m.toolName, status: m.status ?? (m.isError ? 'error' : 'ok') }));
  const decided = app.policy.unattended?.decided() ?? [];
  const denied = decided.filter((d) => !d.allowed).map((d) => ({ toolName: d.toolName, ...(d.line !== undefined ? { line: d.line } : {}) }));
  const allowed = decided.filter((d) => d.allowed).length;
  const lines = [reply || '(no reply)', ''];
  if (toolCalls.length > 0) {
    const count = (status: string) => toolCalls.filter((t) => t.status === status).length;
    lines.push(`Tool calls: ${toolCalls.length} (${count('ok')} ran, ${count('error')} failed, ${count('denied')} denied).`);
  }
  if (allowed > 0) lines.push(`Allowed by --allow: ${allowed}.`);
  if (denied.length > 0) {
    lines.push(`Denied, no one was there to approve them: ${denied.length}.`);
    for (const d of denied) lines.push(`  ${d.toolName}${d.line !== undefined ? `: ${d.line.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`);
  }
  if (result.error) lines.push(`The run ended with an error: ${result.error}`);
  lines.push(`Conversation: ${sessionId}`);
  return {
    json: {
      sessionId,
      reason: result.reason,
      ...(result.error ? { error: result.error } : {}),
      reply,
      toolCalls,
      approvals: { allowed, denied: denied.length, deniedCalls: denied },
    },
    text: lines.join('\n'),
    exitCode: result.reason === 'error' ? 1 : 0,
  };
}
