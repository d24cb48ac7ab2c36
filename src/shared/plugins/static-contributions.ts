import { z } from 'zod';
import { CommandDeclaration, contributionKey, PanelDeclaration, StatusSegmentDeclaration, ToolDeclaration } from './contributions.ts';
import { MAX_DECLARATIONS } from './declaration-limits.ts';
import { checkPlainData } from '../plugin-wire/index.ts';

// What a manifest may declare before its plugin runs (`contributes`), and when the plugin starts
// (`activationEvents`). A plugin that lists activation events is started lazily: main installs its static
// declarations at once and starts its process only when one of them is used or an event it names happens.

/** Kinds a manifest may declare statically: the ones main can offer without asking the plugin anything. */
export const STATIC_KINDS = ['tool', 'command', 'panel', 'statusSegment'] as const;

/** One static declaration: the same shape, schema and caps as the runtime declaration of its kind. */
export const StaticContribution = z.discriminatedUnion('kind', [ToolDeclaration, CommandDeclaration, PanelDeclaration, StatusSegmentDeclaration]);
export type StaticContribution = z.infer<typeof StaticContribution>;

/**
 * A manifest's `contributes`: at most MAX_DECLARATIONS, each kind and key at most once, and plain data as a
 * declaration over the pipe must be (checked before zod copies it: a `__proto__` key would rewrite a prototype).
 */
export const StaticContributions = z
  .array(z.unknown())
  .max(MAX_DECLARATIONS, `a manifest declares at most ${MAX_DECLARATIONS} contributions`)
  .superRefine((raw, ctx) => {
    for (const [i, item] of raw.entries()) {
      const plain = checkPlainData(item);
      if (!plain.ok) ctx.addIssue({ code: 'custom', path: [i], message: `a declaration is plain data, and ${plain.reason}` });
    }
  })
  .pipe(z.array(StaticContribution))
  .superRefine((declarations, ctx) => {
    const seen = new Set<string>();
    for (const [i, decl] of declarations.entries()) {
      const key = `${decl.kind}:${contributionKey(decl)}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i], message: `the ${decl.kind} '${contributionKey(decl)}' is declared twice` });
      seen.add(key);
    }
  });
export type StaticContributions = z.infer<typeof StaticContributions>;

/**
 * When a lazy plugin starts. `onStartup`: at launch, like a plugin without activation events. `onTool`,
 * `onCommand`, `onPanel` (all of its static tools, commands or panels) or `onTool:<name>`,
 * `onCommand:<words>`, `onPanel:<id>` (one of them): at the first call into it. `onEvent:<topic>`: when
 * main or another plugin emits on the topic (the event is delivered once the plugin has started).
 */
export const ActivationEvent = z
  .string()
  .max(200, 'an activation event is at most 200 characters')
  .regex(
    /^(onStartup|onTool|onCommand|onPanel|onTool:[a-zA-Z0-9_-]{1,64}|onCommand:[a-z0-9][a-z0-9_ -]{0,200}|onPanel:[a-zA-Z0-9_.:-]{1,128}|onEvent:[a-zA-Z0-9_.:-]{1,128})$/,
    'an activation event is onStartup, onTool[:name], onCommand[:words], onPanel[:id] or onEvent:<topic>',
  );
export type ActivationEvent = z.infer<typeof ActivationEvent>;

export const ActivationEvents = z.array(ActivationEvent).max(64, 'a manifest lists at most 64 activation events');

/** The manifest fields about lazy start, as PluginManifest holds them. */
export interface LazyStartFields {
  contributes?: StaticContribution[] | undefined;
  activationEvents?: string[] | undefined;
  idleStopMinutes?: number | undefined;
}

/**
 * Why the fields do not fit together, with the field's path, or null. Each `onTool:`/`onCommand:`/`onPanel:`
 * must name a declaration of `contributes`; a lazy plugin must have a way to start; idle stop needs lazy start.
 */
export function lazyStartProblem(fields: LazyStartFields): { path: (string | number)[]; message: string } | null {
  const declared = fields.contributes ?? [];
  const events = fields.activationEvents;
  const keys = (kind: StaticContribution['kind']) => new Set(declared.filter((d) => d.kind === kind).map((d) => contributionKey(d)));
  if (events) {
    for (const [i, event] of events.entries()) {
      const [name, arg] = splitEvent(event);
      const kind = name === 'onTool' ? 'tool' : name === 'onCommand' ? 'command' : name === 'onPanel' ? 'panel' : null;
      if (kind && arg !== null && !keys(kind).has(arg)) {
        return { path: ['activationEvents', i], message: `'${event}' names a ${kind} that contributes does not declare` };
      }
      if (kind && arg === null && keys(kind).size === 0)
        return { path: ['activationEvents', i], message: `'${event}' needs a ${kind} declared in contributes` };
    }
    if (!startsAtLaunch(fields) && eventTopics(fields).length === 0 && !declared.some((d) => d.kind !== 'statusSegment')) {
      return {
        path: ['activationEvents'],
        message: 'nothing would ever start the plugin: list onStartup or onEvent:<topic>, or declare a tool, command or panel in contributes',
      };
    }
  }
  if (fields.idleStopMinutes !== undefined && !events)
    return { path: ['idleStopMinutes'], message: 'idle stop needs activationEvents: a plugin that starts at launch is not started again when used' };
  return null;
}

/** True when the plugin starts when it is switched on (no activation events, or `onStartup` among them). */
export function startsAtLaunch(fields: LazyStartFields): boolean {
  return !fields.activationEvents || fields.activationEvents.includes('onStartup');
}

/** The topics of its `onEvent:<topic>` activation events. */
export function eventTopics(fields: LazyStartFields): string[] {
  return (fields.activationEvents ?? []).flatMap((e) => {
    const [name, arg] = splitEvent(e);
    return name === 'onEvent' && arg !== null ? [arg] : [];
  });
}

function splitEvent(event: string): [string, string | null] {
  const at = event.indexOf(':');
  return at < 0 ? [event, null] : [event.slice(0, at), event.slice(at + 1)];
}
