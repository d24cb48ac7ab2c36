import { expect, test } from 'vitest';
import { MAX_DECLARATIONS, MAX_TOOL_DESCRIPTION_CHARS } from './declaration-limits.ts';
import { PluginManifest } from './plugin-manifest.ts';
import { eventTopics, startsAtLaunch } from './static-contributions.ts';

const base = { id: 'lazy', version: '1.0.0', name: 'Lazy', protocolVersion: 1, entry: 'index.js' };
const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  kind: 'tool',
  name,
  description: 'Does it.',
  parameters: { type: 'object', properties: {} },
  readOnly: true,
  ...extra,
});

/** The first problem zod names, as discovery reports it: the field's path, then the sentence. */
function refusal(manifest: Record<string, unknown>): string {
  const parsed = PluginManifest.safeParse({ ...base, ...manifest });
  if (parsed.success) return 'accepted';
  const issue = parsed.error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
}

test('a manifest with static tools, a command, a panel, a status segment and activation events is accepted', () => {
  const manifest = PluginManifest.parse({
    ...base,
    contributes: [
      tool('peek'),
      { kind: 'command', path: ['lazy', 'hello'], help: 'Says hello.' },
      { kind: 'panel', id: 'lazy.panel', title: 'Lazy' },
      { kind: 'statusSegment', id: 'lazy.status', text: 'idle' },
    ],
    activationEvents: ['onTool:peek', 'onCommand:lazy hello', 'onPanel', 'onEvent:agent.event'],
    idleStopMinutes: 0.5,
  });
  expect(manifest.contributes?.map((c) => c.kind)).toEqual(['tool', 'command', 'panel', 'statusSegment']);
  expect(startsAtLaunch(manifest)).toBe(false);
  expect(eventTopics(manifest)).toEqual(['agent.event']);
  expect(startsAtLaunch(PluginManifest.parse(base))).toBe(true);
  expect(startsAtLaunch(PluginManifest.parse({ ...base, contributes: [tool('peek')], activationEvents: ['onStartup'] }))).toBe(true);
});

test('an oversized static declaration is refused with the field and the cap named', () => {
  expect(refusal({ contributes: [tool('peek', { description: 'x'.repeat(MAX_TOOL_DESCRIPTION_CHARS + 1) })], activationEvents: ['onTool'] })).toBe(
    "contributes.0.description: a tool's description is at most 4,096 characters",
  );
  const deep: Record<string, unknown> = {};
  let at = deep;
  for (let i = 0; i < 40; i++) at = (at['a'] = {}) as Record<string, unknown>;
  expect(refusal({ contributes: [tool('peek', { parameters: { type: 'object', properties: deep } })] })).toMatch(
    /^contributes\.0\.parameters: .*nested at most 32 levels/,
  );
  expect(refusal({ contributes: Array.from({ length: MAX_DECLARATIONS + 1 }, (_, i) => tool(`t${i}`)) })).toBe(
    'contributes: a manifest declares at most 256 contributions',
  );
});

test('a static declaration twice, of a kind that cannot be static, or of garbage is refused with its index', () => {
  expect(refusal({ contributes: [tool('peek'), tool('peek')] })).toBe("contributes.1: the tool 'peek' is declared twice");
  expect(refusal({ contributes: [tool('peek'), { kind: 'provider', id: 'p', flavor: 'x', models: [] }] })).toMatch(/^contributes\.1\.kind: /);
  expect(refusal({ contributes: [tool('bad name!')] })).toBe('contributes.0.name: a tool name is 1-64 letters, digits, _ or -');
  expect(refusal({ contributes: ['tool'] })).toMatch(/^contributes\.0: /);
  expect(refusal({ contributes: { tools: [] } })).toMatch(/^contributes: /);
  expect(
    refusal({
      contributes: [
        JSON.parse(
          '{"kind":"tool","name":"peek","description":"d","readOnly":true,"parameters":{"type":"object","properties":{"__proto__":{"type":"string"}}}}',
        ),
      ],
    }),
  ).toBe('contributes.0: a declaration is plain data, and it holds a key named __proto__');
  expect(refusal({ contributes: [tool('peek', { pathParams: ['missing'] })] })).toBe(
    'contributes.0.pathParams: pathParams names missing, which parameters.properties does not declare',
  );
});

test('activation events outside the grammar, naming undeclared contributions, or starting nothing are refused', () => {
  expect(refusal({ activationEvents: ['whenever'] })).toMatch(/^activationEvents\.0: an activation event is onStartup/);
  expect(refusal({ activationEvents: ['onEvent:'] })).toMatch(/^activationEvents\.0: /);
  expect(refusal({ contributes: [tool('peek')], activationEvents: ['onTool:poke'] })).toBe(
    "activationEvents.0: 'onTool:poke' names a tool that contributes does not declare",
  );
  expect(refusal({ contributes: [tool('peek')], activationEvents: ['onCommand'] })).toBe(
    "activationEvents.0: 'onCommand' needs a command declared in contributes",
  );
  expect(refusal({ activationEvents: [] })).toMatch(/^activationEvents: nothing would ever start the plugin/);
  expect(refusal({ contributes: [{ kind: 'statusSegment', id: 's', text: 'x' }], activationEvents: [] })).toMatch(
    /^activationEvents: nothing would ever start/,
  );
  expect(refusal({ idleStopMinutes: 5 })).toMatch(/^idleStopMinutes: idle stop needs activationEvents/);
  expect(refusal({ contributes: [tool('peek')], activationEvents: ['onTool'], idleStopMinutes: 0 })).toBe(
    'idleStopMinutes: idleStopMinutes is a number of minutes above 0',
  );
  expect(refusal({ contributes: [tool('peek')], activationEvents: ['onTool'] })).toBe('accepted');
  expect(refusal({ activationEvents: ['onEvent:agent.event'] })).toBe('accepted');
});
