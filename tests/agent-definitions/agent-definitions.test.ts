import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentConfirmations, AgentDefinitions, BUILTIN_AGENTS } from '../../src/main/agent-definitions/index.ts';
import { AgentDefinition } from '../../src/shared/agent-definitions/index.ts';

/** Confirmations kept in a plain map (the app keeps them in the settings table; see agent-definitions-app.test.ts). */
function mapConfirmations(): AgentConfirmations & { all: Map<string, Record<string, string>> } {
  const all = new Map<string, Record<string, string>>();
  return { all, get: (root) => all.get(root) ?? {}, set: (root, confirmed) => void all.set(root, confirmed) };
}

const agentFile = (fields: Record<string, string>, body = 'Do the thing.'): string =>
  ['---', ...Object.entries(fields).map(([k, v]) => `${k}: ${v}`), '---', body, ''].join('\n');

describe('AgentDefinitions', () => {
  let base: string;
  let userDir: string;
  let workspace: string;
  let logged: string[];
  let confirmations: ReturnType<typeof mapConfirmations>;
  let agents: AgentDefinitions;

  const writeUser = (file: string, text: string) => {
    mkdirSync(userDir, { recursive: true });
    writeFileSync(join(userDir, file), text);
  };
  const writeWorkspace = (file: string, text: string) => {
    mkdirSync(join(workspace, '.amber', 'agents'), { recursive: true });
    writeFileSync(join(workspace, '.amber', 'agents', file), text);
  };

  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'amber-agents-')));
    userDir = join(base, 'data', 'agents');
    workspace = join(base, 'ws');
    mkdirSync(workspace);
    logged = [];
    confirmations = mapConfirmations();
    agents = new AgentDefinitions({ userDir, confirmations, log: (m) => logged.push(m) });
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('has the two built-ins: explore is read-only with read and search tools, general may write', async () => {
    const list = await agents.list(workspace);
    expect(list.map((d) => [d.name, d.source, d.mayWrite])).toEqual([
      ['explore', 'builtin', false],
      ['general', 'builtin', true],
    ]);
    const explore = list[0]!;
    expect(explore.tools).toEqual(['read', 'ls', 'find', 'grep']);
    expect(explore.prompt).toMatch(/file path/);
    expect(list[1]!.tools).toBeUndefined();
    // The built-ins hold to the same schema as the files.
    for (const builtin of BUILTIN_AGENTS) expect(AgentDefinition.parse(builtin)).toEqual(builtin);
  });

  it("reads the user's folder with every field, iterations as an alias and the body as the prompt", async () => {
    writeUser(
      'reviewer.md',
      agentFile(
        { name: 'reviewer', description: 'Reviews a diff', tools: '[read, grep]', model: 'openrouter/meta-llama/llama-4', iterations: '7', write: 'true' },
        '# Reviewer\n\nLook hard.',
      ),
    );
    expect(await agents.get('reviewer')).toEqual({
      name: 'reviewer',
      description: 'Reviews a diff',
      tools: ['read', 'grep'],
      model: { provider: 'openrouter', id: 'meta-llama/llama-4' },
      maxIterations: 7,
      mayWrite: true,
      prompt: '# Reviewer\n\nLook hard.',
      source: 'user',
      path: join(userDir, 'reviewer.md'),
    });
  });

  it('a definition may not write unless it says write: true', async () => {
    writeUser('quiet.md', agentFile({ name: 'quiet', description: 'Quiet', tools: 'read, ls' }));
    expect(await agents.get('quiet')).toMatchObject({ mayWrite: false, tools: ['read', 'ls'] });
  });

  it('a workspace definition overrides a user one, which overrides a built-in, and the scan says so', async () => {
    writeUser('explore.md', agentFile({ name: 'explore', description: 'My explorer' }));
    writeUser('helper.md', agentFile({ name: 'helper', description: 'User helper' }));
    writeWorkspace('helper.md', agentFile({ name: 'helper', description: 'Workspace helper' }));
    await agents.confirm(workspace, 'helper');
    const scan = await agents.scan(workspace);
    expect(scan.definitions.map((d) => [d.name, d.source, d.description])).toEqual([
      ['explore', 'user', 'My explorer'],
      ['general', 'builtin', expect.any(String)],
      ['helper', 'workspace', 'Workspace helper'],
    ]);
    expect(scan.overridden).toEqual([
      { name: 'explore', source: 'builtin', by: 'user' },
      { name: 'helper', source: 'user', path: join(userDir, 'helper.md'), by: 'workspace' },
    ]);
    // Without the workspace, the user's stands.
    expect((await agents.get('helper'))?.description).toBe('User helper');
  });

  it.each([
    ['a missing description', agentFile({ name: 'bad' }), /bad\.md: the field description is missing/],
    ['an unknown field', agentFile({ name: 'bad', description: 'd', colour: 'red' }), /bad\.md: the field colour is not a field an agent file has/],
    ['a write that is not a flag', agentFile({ name: 'bad', description: 'd', write: 'maybe' }), /bad\.md: the field write must be true or false/],
    [
      'iterations that are not a number',
      agentFile({ name: 'bad', description: 'd', maxIterations: 'lots' }),
      /bad\.md: the field maxIterations must be a whole number/,
    ],
    ['a model without a provider', agentFile({ name: 'bad', description: 'd', model: 'gpt' }), /bad\.md: the field model must be provider\/model/],
    ['a name with capitals', agentFile({ name: 'Bad', description: 'd' }), /bad\.md: the field name must be 1 to 64 lowercase/],
    ['no front matter', 'Just a prompt\n', /bad\.md: line 1: the file must start with a ---/],
    ['nested front matter', '---\nname: bad\nmodel:\n  provider: x\n---\n', /bad\.md: line 4: indented lines/],
  ])('a file with %s is skipped with a sentence naming the file and field, never a crash', async (_what, text, problem) => {
    writeUser('bad.md', text);
    writeUser('good.md', agentFile({ name: 'good', description: 'Fine' }));
    const scan = await agents.scan();
    expect(scan.definitions.map((d) => d.name)).toEqual(['explore', 'general', 'good']);
    expect(scan.problems).toHaveLength(1);
    expect(scan.problems[0]).toMatch(problem);
    expect(logged).toEqual([expect.stringContaining('bad.md')]);
  });

  it('two files of one folder with the same name: the second is skipped', async () => {
    writeUser('a.md', agentFile({ name: 'twin', description: 'First' }));
    writeUser('b.md', agentFile({ name: 'twin', description: 'Second' }));
    const scan = await agents.scan();
    expect(scan.definitions.find((d) => d.name === 'twin')?.description).toBe('First');
    expect(scan.problems).toEqual([expect.stringMatching(/b\.md: the name twin is already used by .*a\.md/)]);
  });

  it('a workspace definition is offered only after it is confirmed, and asks again when its file changes', async () => {
    writeWorkspace('scout.md', agentFile({ name: 'scout', description: 'Scouts' }));
    expect((await agents.list(workspace)).map((d) => d.name)).toEqual(['explore', 'general']);
    expect(await agents.get('scout', workspace)).toBeUndefined();
    expect((await agents.pending(workspace)).map((p) => [p.definition.name, p.changed])).toEqual([['scout', false]]);

    expect(await agents.confirm(workspace, 'scout')).toEqual(['scout']);
    expect((await agents.get('scout', workspace))?.source).toBe('workspace');
    expect(await agents.pending(workspace)).toEqual([]);

    writeWorkspace('scout.md', agentFile({ name: 'scout', description: 'Scouts', write: 'true' }));
    expect(await agents.get('scout', workspace)).toBeUndefined();
    expect((await agents.pending(workspace)).map((p) => [p.definition.name, p.changed])).toEqual([['scout', true]]);
  });

  it('confirms all pending ones at once; an unknown name is refused with what is waiting', async () => {
    writeWorkspace('a.md', agentFile({ name: 'alpha', description: 'A' }));
    writeWorkspace('b.md', agentFile({ name: 'beta', description: 'B' }));
    await expect(agents.confirm(workspace, 'gamma')).rejects.toMatchObject({ code: 'not_found', message: expect.stringMatching(/waiting: alpha, beta/) });
    expect(await agents.confirm(workspace, 'all')).toEqual(['alpha', 'beta']);
    expect((await agents.list(workspace)).filter((d) => d.source === 'workspace').map((d) => d.name)).toEqual(['alpha', 'beta']);
    expect(await agents.confirm(workspace, 'all')).toEqual([]);
    await expect(agents.confirm(join(base, 'gone'), 'all')).rejects.toMatchObject({ code: 'not_found', message: expect.stringMatching(/cannot be found/) });
  });

  it('a confirmation belongs to its workspace: the same file in another workspace asks again', async () => {
    writeWorkspace('a.md', agentFile({ name: 'alpha', description: 'A' }));
    await agents.confirm(workspace, 'all');
    const other = join(base, 'other');
    mkdirSync(join(other, '.amber', 'agents'), { recursive: true });
    writeFileSync(join(other, '.amber', 'agents', 'a.md'), agentFile({ name: 'alpha', description: 'A' }));
    expect(await agents.get('alpha', other)).toBeUndefined();
    expect(await agents.pending(other)).toHaveLength(1);
  });

  it('does not follow a workspace agents folder or file that links outside the workspace', async () => {
    const outside = join(base, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'x.md'), agentFile({ name: 'sneaky', description: 'Out' }));
    mkdirSync(join(workspace, '.amber'), { recursive: true });
    symlinkSync(outside, join(workspace, '.amber', 'agents'));
    const scan = await agents.scan(workspace);
    expect(scan.pending).toEqual([]);
    expect(scan.problems).toEqual([expect.stringMatching(/leads outside the workspace/)]);

    rmSync(join(workspace, '.amber', 'agents'));
    mkdirSync(join(workspace, '.amber', 'agents'));
    symlinkSync(join(outside, 'x.md'), join(workspace, '.amber', 'agents', 'x.md'));
    expect(await agents.pending(workspace)).toEqual([]);
  });
});
