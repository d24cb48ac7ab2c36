import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MEMORY_EXTRACTED_TOPIC } from '../../src/shared/plugins/index.ts';
import { type BundledRuntime, startBundled, tempDir } from './bundled-runtime.ts';

let dir: ReturnType<typeof tempDir>;
let workspace: string;
let runtime: BundledRuntime | null = null;

beforeEach(() => {
  dir = tempDir('amber-memory-');
  workspace = join(dir.path, 'project');
  mkdirSync(workspace);
});

afterEach(async () => {
  await runtime?.close();
  runtime = null;
  dir.remove();
});

async function start(config: Record<string, unknown> = {}): Promise<BundledRuntime> {
  runtime = await startBundled(['memory'], { dataDir: dir.path, config: new Map([['memory', { dataDir: join(dir.path, 'memory-data'), ...config }]]) });
  return runtime;
}

const remember = (r: BundledRuntime, args: unknown, extra: Record<string, unknown> = {}) =>
  r.service.registries.tools.execute('remember', args, undefined, { sessionId: 's1', workspace, denied: [dir.path], ...extra });
const text = (out: { content: { text: string }[] }) => out.content.map((c) => c.text).join('');
const memory = (r: BundledRuntime, ...args: string[]) => r.service.registries.commands.run(['memory'], args);
const rendered = (r: BundledRuntime, prompt: string, sessionId = 's2') =>
  r.service.registries.promptBlocks.get('memory.recall')!.value.render({ sessionId, workspace, prompt });
const recall = async (r: BundledRuntime, prompt: string, sessionId = 's2') => {
  const out = await rendered(r, prompt, sessionId);
  return typeof out === 'string' ? out : out.text;
};
const panel = (r: BundledRuntime) => r.service.registries.panels.list().find((p) => p.id === 'memory')!;
const segment = (r: BundledRuntime) => r.service.registries.statusSegments.get('memory')?.value.text;
const rowActions = (r: BundledRuntime) =>
  panel(r).sections.flatMap((s) => s.rows.flatMap((row) => (row.type === 'text' ? (row.actions ?? []).map((a) => a.id) : [])));

describe('the memory plugin in its own process', () => {
  it('contributes the remember tool, a recall block, a status segment, the Memory panel and /memory', async () => {
    const r = await start();
    expect(r.service.get('memory').contributions.map((c) => `${c.kind}:${c.key}:${c.status}`)).toEqual([
      'tool:remember:installed',
      'tool:search_memories:installed',
      'promptBlock:memory.recall:installed',
      'statusSegment:memory:installed',
      'panel:memory:installed',
      'command:memory:installed',
    ]);
    expect(panel(r).title).toBe('Memory');
  });

  it('in suggest mode keeps what the agent remembers in the tray; accepted, it is recalled in a later request', async () => {
    const r = await start();
    const out = await remember(r, { text: 'The user prefers tabs over spaces for indentation', kind: 'user' });
    expect(out.isError).toBe(false);
    expect(text(out)).toMatch(/^Suggested as memory #1: it is kept once the user accepts it/);
    await r.until(() => segment(r) === 'memory: 0 (1 to review)', 'the review count in the status bar');
    expect(await recall(r, 'fix the indentation please')).toBe('');
    expect(rowActions(r)).toEqual(['accept.1', 'dismiss.1']);

    await r.service.registries.panels.action('memory', 'accept.1');
    await r.until(() => segment(r) === 'memory: 1', 'the accepted memory in the status bar');
    const block = await recall(r, 'fix the indentation please');
    expect(block).toContain('- The user prefers tabs over spaces for indentation');
    // The recalled memories are the block's sources: the reply records them, the window shows them as chips.
    expect(await rendered(r, 'fix the indentation please')).toMatchObject({
      sources: [{ id: '1', label: 'The user prefers tabs over spaces for indentation' }],
    });
    expect(await recall(r, 'what is the weather in Oslo')).toBe('');
  });

  it('in auto mode keeps it at once, and off keeps and recalls nothing', async () => {
    const r = await start({ mode: 'auto' });
    expect(text(await remember(r, { text: 'Releases are tagged vX.Y.Z on the main branch', kind: 'procedure' }))).toBe('Remembered as #1.');
    expect(await recall(r, 'how do we tag a release')).toContain('Releases are tagged vX.Y.Z');
    r.config.set('memory', { ...r.config.get('memory'), mode: 'off' });
    const off = await remember(r, { text: 'The user is called Sam' });
    expect(off.isError).toBe(true);
    expect(text(off)).toMatch(/Memory is off/);
    expect(await recall(r, 'how do we tag a release')).toBe('');
    expect((await memory(r, 'list')).output).not.toContain('Sam');
  });

  it('refuses a child agent’s write and bad arguments with sentences, keeping nothing', async () => {
    const r = await start({ mode: 'auto' });
    const child = await remember(r, { text: 'The build uses make' }, { subagent: true });
    expect(child).toMatchObject({ isError: true });
    expect(text(child)).toMatch(/A sub-agent cannot write memories/);
    // It reads them: the search tool answers a child as anyone.
    await memory(r, 'add', 'The build uses make release');
    const search = (args: unknown) =>
      r.service.registries.tools.execute('search_memories', args, undefined, { sessionId: 's1', workspace, denied: [], subagent: true });
    expect(text(await search({ query: 'how is the build made' }))).toBe('- The build uses make release');
    expect(await search({ query: '' })).toMatchObject({ isError: true });
    await memory(r, 'forget', '1');
    for (const bad of [{}, { text: '' }, { text: 42 }, { text: 'x', kind: 'secret' }, { text: 'x', scope: '/etc' }, null, 'text']) {
      const out = await remember(r, bad);
      expect(out.isError).toBe(true);
      expect(text(out)).toMatch(/^Nothing was remembered: /);
    }
    const huge = await remember(r, { text: 'y'.repeat(50_000) });
    expect(huge.isError).toBe(true);
    expect(text(huge)).toMatch(/longer than 1000 characters/);
    expect((await memory(r, 'list')).output).toBe('No memories are kept.');
  });

  it('keeps SQL-looking text verbatim', async () => {
    const r = await start({ mode: 'auto' });
    const sql = `Robert'); DROP TABLE memories; -- the user's "nickname" is Bobby Tables`;
    await remember(r, { text: sql });
    expect((await memory(r, 'search', 'bobby', 'tables')).output).toBe(`#1 [user, global] ${sql}`);
    expect(await recall(r, 'what is the nickname of the user')).toContain(sql);
  });

  it('keeps what compaction extracted (memory.extracted) as suggestions, project memories in their workspace', async () => {
    const r = await start();
    r.service.events.emit(MEMORY_EXTRACTED_TOPIC, {
      sessionId: 's1',
      entryId: 'c1',
      workspace,
      memories: [
        { text: 'The tests run with npm run test:unit', kind: 'project' },
        { text: 'The user wants short answers', kind: 'user' },
      ],
    });
    r.service.events.emit(MEMORY_EXTRACTED_TOPIC, { sessionId: 's1', memories: 'not a list' });
    await r.until(() => segment(r) === 'memory: 0 (2 to review)', 'two suggestions');
    const shown = (await memory(r)).output;
    expect(shown).toContain('to review #1: The tests run with npm run test:unit');
    expect((await memory(r, 'accept', '1')).output).toMatch(/^Kept #1/);
    // Each memory says where it came from.
    expect((await memory(r, 'show', '1')).output.split('\n').slice(2)).toEqual(['from conversation s1, entry c1']);
    expect((await memory(r, 'list')).output).toBe(`#1 [project, ${workspace}] The tests run with npm run test:unit`);
    expect((await memory(r, 'dismiss', '2')).isError).toBe(false);
    r.service.events.emit(MEMORY_EXTRACTED_TOPIC, { sessionId: 's1', entryId: 'c2', memories: [{ text: 'The user wants short answers.', kind: 'user' }] });
    r.service.events.emit(MEMORY_EXTRACTED_TOPIC, { sessionId: 's1', entryId: 'c3', memories: [{ text: 'The user lives in Porto', kind: 'user' }] });
    await r.until(() => segment(r) === 'memory: 1 (1 to review)', 'only the new suggestion');
  });

  it('pins, deletes with undo, pauses recall and forgets all after a confirmation', async () => {
    const r = await start({ mode: 'auto' });
    await memory(r, 'add', 'Answer in British English');
    await memory(r, 'add', 'The staging server is staging.example.org');
    await memory(r, 'pin', '1');
    // An edit replaces the words, keeps the pin, and leaves the old wording in history.
    expect((await memory(r, 'edit', '1', 'Answer in British English, briefly')).output).toBe('Memory #1 is now #3: Answer in British English, briefly');
    expect((await memory(r, 'edit', '3', 'answer in British English, briefly.')).output).toBe('Memory #3 already says that.');
    expect((await memory(r, 'list')).output).toContain('#3 pinned [user, global] Answer in British English, briefly');
    expect((await memory(r, 'edit', '1', 'x')).isError).toBe(true);
    expect(await recall(r, 'deploy to staging')).toBe(
      'Memories the user keeps from earlier conversations (use them where they apply; what the user says now wins):\n- Answer in British English, briefly\n- The staging server is staging.example.org',
    );
    await r.until(() => rowActions(r).includes('delete.2'), 'the second memory in the panel');
    await r.service.registries.panels.action('memory', 'delete.2');
    await r.until(() => rowActions(r).includes('undo.2'), 'the undo button');
    expect(await recall(r, 'deploy to staging')).not.toContain('staging.example.org');
    await r.service.registries.panels.action('memory', 'undo.2');
    await r.until(() => segment(r) === 'memory: 2' && !rowActions(r).includes('undo.2'), 'both memories back');

    await r.service.registries.panels.action('memory', 'pause');
    await r.until(() => segment(r) === 'memory: 2, recall paused', 'recall paused');
    expect(await recall(r, 'deploy to staging')).toBe('');
    await r.service.registries.panels.action('memory', 'resume');
    await r.until(() => segment(r) === 'memory: 2', 'recall resumed');

    await r.service.registries.panels.action('memory', 'forget-all');
    await r.until(() => rowActions(r).includes('forget-all.confirm'), 'the confirmation');
    expect((await memory(r, 'list')).output).toContain('#2');
    await r.service.registries.panels.action('memory', 'forget-all.confirm');
    await r.until(() => segment(r) === '', 'nothing kept');
    expect((await memory(r, 'list')).output).toBe('No memories are kept.');
    await expect(r.service.registries.panels.action('memory', 'accept.99')).rejects.toThrow(/has no action/);
  });

  it('exports and imports Markdown inside the workspace only', async () => {
    const r = await start({ mode: 'auto' });
    await remember(r, { text: 'The API listens on port 8080', kind: 'project', scope: 'workspace' });
    await memory(r, 'add', 'The user prefers dark mode');
    await memory(r, 'pin', '2');
    const exported = await memory(r, 'export', 'notes.md');
    expect(exported).toEqual({ output: `Wrote 2 memories to ${join(workspace, 'notes.md')}.`, isError: false });
    const md = readFileSync(join(workspace, 'notes.md'), 'utf8');
    expect(md).toContain('## Global · user\n\n- 📌 The user prefers dark mode');
    expect(md).toContain(`## ${workspace} · project\n\n- The API listens on port 8080`);

    writeFileSync(join(dir.path, 'outside.md'), '- The user is an admin');
    symlinkSync(join(dir.path, 'outside.md'), join(workspace, 'link.md'));
    for (const file of ['../outside.md', join(dir.path, 'outside.md'), 'link.md', '/etc/passwd']) {
      const refused = await memory(r, 'import', file);
      expect(refused.isError).toBe(true);
      expect(refused.output).toMatch(/outside the workspace|no file/);
    }
    expect((await memory(r, 'export', '../escape.md')).output).toMatch(/outside the workspace/);

    writeFileSync(join(workspace, 'more.md'), `${md}\n## Global · procedure\n\n- Run the linter before every commit\n`);
    expect((await memory(r, 'import', 'more.md')).output).toBe(`Imported 3 memories from ${join(workspace, 'more.md')}: 1 new, 2 already kept.`);
    expect((await memory(r, 'list')).output.split('\n')).toHaveLength(3);
    expect((await memory(r, 'search', 'admin')).output).toBe('No memory matches.');
  });
});
