import { expect, test } from 'vitest';
import type { ToolSpec } from '../../shared/tools/index.ts';
import { pluginToolSource } from '../agent-bridge/index.ts';
import { ToolRegistry } from '../plugins/index.ts';
import { childTools } from './child-tools.ts';

const spec = (name: string, readOnly: boolean): ToolSpec => ({ name, description: name, parameters: { type: 'object', properties: {} }, readOnly });

test("a child agent's call reaches a plugin's tool marked as a sub-agent's; the conversation's own call is not", async () => {
  const tools = new ToolRegistry();
  const contexts: unknown[] = [];
  tools.register('memory', 'remember', {
    spec: spec('remember', true),
    execute: async (_args, _signal, context) => (contexts.push(context), { content: [], isError: false }),
  });
  const source = pluginToolSource(tools, { denied: ['/data'] });
  const execution = { sessionId: 's1', workspaceRoot: '/w', toolCallId: 'c1', signal: new AbortController().signal, onUpdate: () => {} };
  await source.execute('remember', {}, execution);
  await childTools(source, { name: 'general', description: '', mayWrite: true, prompt: '' }).execute('remember', {}, execution);
  expect(contexts).toEqual([
    { sessionId: 's1', workspace: '/w', denied: ['/data'] },
    { sessionId: 's1', workspace: '/w', denied: ['/data'], subagent: true },
  ]);
});
