// The worked example from docs/plugins.md: one contribution of each kind, and a hook at each interception
// point, all in this plugin's own process.
import { definePlugin, type PluginContext, type ProviderEvent, type ProviderRequest } from '../../workers/sdk/index.ts';

let ctx: PluginContext | null = null;
let greetings = 0;
let ticks = 0;
let spent = 0;

const status = () => ({ id: 'example.greetings', text: `greeted ${greetings}×`, tooltip: 'Greetings by the example plugin', priority: 0 });
const panel = () => ({
  id: 'example.panel',
  title: 'Example',
  sections: [
    {
      title: 'Counters',
      rows: [
        { type: 'keyValue' as const, key: 'Greetings', value: String(greetings) },
        { type: 'keyValue' as const, key: 'Ticks', value: String(ticks) },
        { type: 'progress' as const, label: 'Allowance used', value: spent, max: 100 },
      ],
    },
  ],
  actions: [{ id: 'reset', label: 'Reset counters' }],
});

function lastUserText(request: ProviderRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const m = request.messages[i] as { role: string; content?: unknown };
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) return m.content.map((c: { text?: string }) => c.text ?? '').join('');
  }
  return '';
}

export default definePlugin({
  manifest: { id: 'example', version: '1.0.0' },

  async initialize(context) {
    ctx = context;
    context.log.info(`example plugin started in ${context.workspace}`);
    return true;
  },

  async shutdown() {
    ctx = null;
  },

  async tick() {
    ticks++;
    ctx?.updatePanel(panel());
  },

  async capabilities() {
    return [
      {
        kind: 'tool',
        name: 'example_greet',
        description: 'Greets someone. The greeting word comes from the plugin config ("greeting"), read live.',
        parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        readOnly: true,
        async execute(args) {
          const greeting = (await ctx?.config<string>('greeting')) ?? 'Hello';
          greetings++;
          ctx?.updateStatus(status());
          ctx?.events.emit('example.greeted', { name: args.name });
          return `${greeting}, ${String(args.name)}!`;
        },
      },
      {
        kind: 'promptBlock',
        id: 'example.workspace',
        position: 'head',
        priority: 10,
        render: (context) => `The workspace is ${context.workspace}.`,
      },
      { kind: 'statusSegment', ...status() },
      {
        kind: 'panel',
        ...panel(),
        onAction(actionId) {
          if (actionId === 'reset') greetings = ticks = 0;
          ctx?.updatePanel(panel());
          ctx?.updateStatus(status());
        },
      },
      {
        kind: 'provider',
        id: 'example-echo',
        flavor: 'echo',
        models: [{ id: 'echo-1', name: 'Echo', contextWindow: 8192 }],
        async *stream(request, signal): AsyncIterable<ProviderEvent> {
          yield { type: 'start' };
          const text = `echo: ${lastUserText(request)}`;
          for (const word of text.split(/(?<= )/)) {
            if (signal.aborted) break;
            yield { type: 'text_delta', delta: word };
          }
          const message = {
            role: 'assistant' as const,
            content: [{ type: 'text' as const, text }],
            provider: 'example-echo',
            model: request.model.id,
            timestamp: Date.now(),
          };
          if (signal.aborted)
            yield { type: 'error', kind: 'aborted', message: { ...message, stopReason: 'aborted', errorMessage: 'The request was aborted.' } };
          else yield { type: 'done', message: { ...message, stopReason: 'stop' } };
        },
      },
      {
        kind: 'wallet',
        id: 'example.wallet',
        provider: 'example-echo',
        balance: 10,
        currency: 'USD',
        refresh: () => ({ balance: 10 - spent / 100, currency: 'USD' }),
      },
      {
        kind: 'allowance',
        id: 'example.allowance',
        scope: 'example-echo',
        limit: 100,
        unit: 'calls',
        async check() {
          const limit = (await ctx?.config<number>('allowanceLimit')) ?? 100;
          if (spent >= limit) return { allowed: false, reason: `The example allowance of ${limit} calls is used up.`, spent };
          spent++;
          return { allowed: true, spent };
        },
      },
      {
        kind: 'command',
        path: ['example', 'hello'],
        help: 'Say hello from the example plugin.',
        man: 'example hello [WORDS…]\n\nAnswers with a greeting followed by WORDS.',
        run: (args) => `hello ${args.join(' ')}`.trim(),
      },
      // Hooks: each is called in load order with what the plugins before it left; answering nothing changes nothing.
      {
        kind: 'hook',
        point: 'input',
        // A message starting with "!example" is handled here and never reaches the model.
        run: (e) =>
          e.text.startsWith('!example') ? { swallow: true, reason: 'The example plugin handled this message, so it was not sent to the model.' } : undefined,
      },
      {
        kind: 'hook',
        point: 'before_agent_start',
        // Text the user set as the example's "note" joins the system prompt of every run.
        run: async () => {
          const note = await ctx?.config<string>('note');
          return typeof note === 'string' && note !== '' ? { systemPrompt: note } : undefined;
        },
      },
      {
        kind: 'hook',
        point: 'context',
        // Sees each request's messages; a hook could return { messages } to send others (the session keeps its own).
        run: (e) => {
          ctx?.log.debug(`a model call with ${e.messages.length} messages`);
        },
      },
      {
        kind: 'hook',
        point: 'tool_call',
        // Blocks one call with a reason the model and the user read, and tidies another's arguments (which are
        // then checked against the tool's schema and judged by the policy again).
        run: (e) => {
          if (e.toolName !== 'example_greet') return undefined;
          const name = String(e.args.name ?? '');
          if (name.trim().toLowerCase() === 'nobody') return { block: true, reason: 'The example plugin does not greet nobody.' };
          return name !== name.trim() ? { args: { ...e.args, name: name.trim() } } : undefined;
        },
      },
      {
        kind: 'hook',
        point: 'tool_result',
        // Adds a hint to failed results of this plugin's own tool.
        run: (e) =>
          e.toolName === 'example_greet' && e.result.isError
            ? { result: { ...e.result, content: [...e.result.content, { type: 'text', text: 'Hint: greet someone by name.' }] } }
            : undefined,
      },
    ];
  },
});
