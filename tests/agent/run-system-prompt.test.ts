// The system message is built once a run while the tools stay the same: building it reads the project's
// instruction files, which a 100-turn run must not do a hundred times. A change of tools rebuilds it.
import { afterEach, expect, test } from 'vitest';
import type { ToolSource } from '../../src/main/agent/index.ts';
import type { ToolSpec } from '../../src/shared/tools/index.ts';
import { createHarness, type Harness } from './agent-harness.ts';
import { calls, text } from './scripted-provider.ts';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const spec = (name: string): ToolSpec => ({ name, description: `The ${name} tool.`, parameters: { type: 'object', properties: {} }, readOnly: true });
const ok = { content: [{ type: 'text' as const, text: 'ok' }], isError: false };

test('a run of several tool turns builds its system message once and sends it on every turn', async () => {
  const step = spec('step');
  const tools: ToolSource = { list: () => [step], execute: async () => ok };
  const built: string[] = [];
  h = createHarness(
    [calls({ name: 'step', args: { n: 1 } }), calls({ name: 'step', args: { n: 2 } }), calls({ name: 'step', args: { n: 3 } }), text('Done.'), text('done')],
    {
      tools,
      systemPrompt: (_sessionId, offered) => {
        built.push(offered.map((t) => t.name).join(','));
        return `Prompt ${built.length}.`;
      },
    },
  );
  const result = await h.agent.prompt(h.sessionId, 'go');
  expect(result.reason).toBe('stop');
  expect(built).toEqual(['step']);
  // Four turns and the confirm call, each with the one message built for the run.
  expect(h.provider.requests.map((r) => r.systemPrompt)).toEqual(Array(5).fill('Prompt 1.'));

  // The next run builds it again: instruction files edited between runs apply.
  h.provider.push(text('Hi.'));
  await h.agent.prompt(h.sessionId, 'again');
  expect(built).toEqual(['step', 'step']);
  expect(h.provider.requests.at(-1)!.systemPrompt).toBe('Prompt 2.');
});

test('a tool that appears mid-run rebuilds the system message for the turns that offer it', async () => {
  const step = spec('step');
  const extra = spec('extra');
  let offered: ToolSpec[] = [step];
  const tools: ToolSource = {
    list: () => offered,
    execute: async () => {
      offered = [step, extra];
      return ok;
    },
  };
  const built: string[] = [];
  h = createHarness([calls({ name: 'step', args: { n: 1 } }), calls({ name: 'extra', args: {} }), text('Done.'), text('done')], {
    tools,
    systemPrompt: (_sessionId, specs) => {
      built.push(specs.map((t) => t.name).join(','));
      return `Tools: ${built.at(-1)}.`;
    },
  });
  await h.agent.prompt(h.sessionId, 'go');
  expect(built).toEqual(['step', 'step,extra']);
  expect(h.provider.requests.map((r) => r.systemPrompt)).toEqual(['Tools: step.', 'Tools: step,extra.', 'Tools: step,extra.', 'Tools: step,extra.']);
});
