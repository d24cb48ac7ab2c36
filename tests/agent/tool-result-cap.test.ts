// A tool result over the cap, from a real plugin process: the model gets its first 50,000 characters and a
// note saying how much was cut; the full text is kept in the data folder (folders 0700, file 0600) and
// named in the note; a conversation that no longer exists loses its kept outputs at the next sweep.
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { pluginToolSource } from '../../src/main/agent-bridge/index.ts';
import { capToolResult, MAX_TOOL_RESULT_CHARS, ToolOutputStore } from '../../src/main/agent/index.ts';
import type { ToolResultMessage } from '../../src/shared/sessions/index.ts';
import { bigText } from '../fixtures/plugins/big_output/index.ts';
import { createHarness as createPlugins, fixture, type Harness as PluginHarness } from '../plugins/plugin-harness.ts';
import { createHarness, type Harness, textOf } from './agent-harness.ts';
import { calls, text } from './scripted-provider.ts';

let h: Harness | undefined;
let plugins: PluginHarness | undefined;
afterEach(async () => {
  await h?.close();
  await plugins?.close();
  h = plugins = undefined;
});

const allowAll = { authorize: async () => ({ allowed: true as const }) };

test("a plugin tool's 1 MB result reaches the model cut at the cap, with the full text kept by Amber and named", async () => {
  plugins = createPlugins([fixture('big_output')]);
  await plugins.service.start();
  const dataDir = join(plugins.dir, 'data');
  const outputs = new ToolOutputStore(join(dataDir, 'tool-output'));
  h = createHarness([calls({ name: 'big_output', args: { chars: 1_000_000 }, id: 'call-1' }), text('Seen.')], {
    tools: pluginToolSource(plugins.service.registries.tools),
    gate: allowAll,
    toolOutputs: outputs,
  });
  await h.agent.prompt(h.sessionId, 'go');
  const result = h.pathMessages().find((m) => m.role === 'toolResult') as ToolResultMessage;
  const stored = textOf(result);
  const full = bigText(1_000_000);
  expect(stored.startsWith(full.slice(0, MAX_TOOL_RESULT_CHARS))).toBe(true);
  expect(stored.length).toBeLessThan(MAX_TOOL_RESULT_CHARS + 600);
  expect(stored).toContain('950,000 of 1,000,000 characters left out');
  expect(stored).toContain('The full output (1,000,000 characters) is kept by Amber');
  // What the model was sent is the cut result, not the full one.
  const sent = h.provider.requests[1]!.messages.find((m) => m.role === 'toolResult');
  expect(textOf(sent)).toBe(stored);
  const where = /\((tool-output\/[^)]+\.txt)\)/.exec(stored)?.[1];
  expect(where).toBe(`tool-output/${h.sessionId}/call-1.txt`);
  const file = join(dataDir, where!);
  expect(readFileSync(file, 'utf8')).toBe(full);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(statSync(join(dataDir, 'tool-output', h.sessionId)).mode & 0o777).toBe(0o700);
  expect(statSync(join(dataDir, 'tool-output')).mode & 0o777).toBe(0o700);
  // The conversation's outputs go once it no longer exists; another's stay.
  mkdirSync(join(dataDir, 'tool-output', 'gone-session'));
  expect(await outputs.sweep((id) => id === h!.sessionId)).toBe(1);
  expect(existsSync(file)).toBe(true);
  expect(existsSync(join(dataDir, 'tool-output', 'gone-session'))).toBe(false);
});

const result = (texts: string[], toolCallId = 'c1'): ToolResultMessage => ({
  role: 'toolResult',
  toolCallId,
  toolName: 't',
  content: texts.map((t) => ({ type: 'text' as const, text: t })),
  isError: false,
  status: 'ok',
});

test('a result at the cap is left as it is; over it, text parts past the cap go and a pair of surrogates is never split', async () => {
  const at = result(['a'.repeat(10)]);
  expect(await capToolResult(at, 's', { maxChars: 10 })).toBe(at);
  const cut = await capToolResult(result(['abc', `de😀${'f'.repeat(10)}`, 'never']), 's', { maxChars: 6 });
  expect(cut.content.slice(0, -1)).toEqual([
    { type: 'text', text: 'abc' },
    { type: 'text', text: 'de' },
  ]);
  expect(textOf(cut)).toContain('could not be kept (nowhere to keep it)');
});

test('a call id from the model cannot place the kept file outside its folder or over a link', async () => {
  plugins = createPlugins([]);
  const dir = join(plugins.dir, 'tool-output');
  const outputs = new ToolOutputStore(dir);
  const cut = await capToolResult(result(['x'.repeat(100)], '../../escape'), 'session-1', { maxChars: 10, keeper: outputs });
  expect(textOf(cut)).toContain('(tool-output/session-1/______escape.txt)');
  expect(existsSync(join(plugins.dir, 'escape.txt'))).toBe(false);
  // A link planted where the next file would go is neither followed nor replaced: the output goes beside it.
  writeFileSync(join(plugins.dir, 'target.txt'), 'untouched');
  symlinkSync(join(plugins.dir, 'target.txt'), join(dir, 'session-1', 'same.txt'));
  const again = await capToolResult(result(['y'.repeat(100)], 'same'), 'session-1', { maxChars: 10, keeper: outputs });
  expect(textOf(again)).toMatch(/\(tool-output\/session-1\/same-[0-9a-f]{8}\.txt\)/);
  expect(readFileSync(join(plugins.dir, 'target.txt'), 'utf8')).toBe('untouched');
});
