import { z } from 'zod';
import { AgentDefinition, AgentName, type AgentSource, AgentToolName } from '../../shared/agent-definitions/index.ts';
import { readFrontMatter } from './front-matter.ts';

/** A definition read from a file, or the sentence saying which field of which file is wrong. */
export type AgentDefinitionRead = { ok: true; definition: AgentDefinition } | { ok: false; problem: string };

const scalar = (what: string) => z.string({ error: `must be ${what}, not a list` }).transform((s) => s.trim());

const Flag = scalar('true or false')
  .pipe(z.enum(['true', 'false'], { error: 'must be true or false' }))
  .transform((s) => s === 'true');
const Iterations = scalar('a whole number')
  .pipe(z.string().regex(/^\d+$/, 'must be a whole number'))
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be at least 1').max(1000, 'must be at most 1000'));
const Model = scalar('provider/model').pipe(
  z
    .string()
    .regex(/^[^/\s]+\/\S+$/, 'must be provider/model, as anthropic/claude-sonnet-4')
    .transform((s) => ({ provider: s.slice(0, s.indexOf('/')), id: s.slice(s.indexOf('/') + 1) })),
);
// `tools: [read, grep]` or `tools: read, grep`.
const Tools = z
  .union([z.array(z.string()), z.string().transform((s) => (s.trim() === '' ? [] : s.split(',').map((t) => t.trim())))])
  .pipe(z.array(AgentToolName).max(200, 'must list at most 200 tools'));

/** The front matter an agent file may hold; any other field is refused by name. */
const AgentFrontMatter = z.strictObject({
  name: scalar('a name').pipe(AgentName),
  description: scalar('a sentence').pipe(z.string().min(1, 'must not be empty').max(1000, 'must be at most 1000 characters')),
  tools: Tools.optional(),
  model: Model.optional(),
  maxIterations: Iterations.optional(),
  /** The same as maxIterations. */
  iterations: Iterations.optional(),
  write: Flag.optional(),
});

/**
 * Reads one agent file: front matter (name, description, tools, model, maxIterations or iterations, write)
 * and a Markdown body, the prompt. Never throws: a bad file gives a sentence naming the file and the field.
 */
export function parseAgentDefinition(text: string, from: { source: Exclude<AgentSource, 'builtin'>; path: string }): AgentDefinitionRead {
  const read = readFrontMatter(text, AgentFrontMatter, from.path, 'is not a field an agent file has (name, description, tools, model, maxIterations, write)');
  if (!read.ok) return read;
  const { fields: f, body } = read;
  if (f.maxIterations !== undefined && f.iterations !== undefined && f.maxIterations !== f.iterations)
    return { ok: false, problem: `${from.path}: the fields maxIterations and iterations disagree; give one.` };
  const maxIterations = f.maxIterations ?? f.iterations;
  const definition = AgentDefinition.safeParse({
    name: f.name,
    description: f.description,
    ...(f.tools !== undefined ? { tools: f.tools } : {}),
    ...(f.model !== undefined ? { model: f.model } : {}),
    ...(maxIterations !== undefined ? { maxIterations } : {}),
    mayWrite: f.write ?? false,
    prompt: body,
    source: from.source,
    path: from.path,
  });
  if (!definition.success) {
    const issue = definition.error.issues[0]!;
    return { ok: false, problem: `${from.path}: ${String(issue.path[0] ?? 'the file')} ${issue.message}.` };
  }
  return { ok: true, definition: definition.data };
}
