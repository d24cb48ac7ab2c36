import { z } from 'zod';
import { PluginConfigSchema } from './plugin-config-schema.ts';
import { ActivationEvents, lazyStartProblem, StaticContributions } from './static-contributions.ts';

export { PROTOCOL_VERSION } from '../plugin-wire/index.ts';

/** Known categories; an unknown one is kept as it is and groups under its own heading, never hidden. */
export const KNOWN_PLUGIN_CATEGORIES = ['provider', 'observability', 'tools', 'ui', 'memory', 'search', 'other'] as const;

export const PluginId = z
  .string()
  .regex(/^[a-z0-9_]+$/, 'a plugin id is lower-case letters, digits and _')
  .max(64);
export type PluginId = z.infer<typeof PluginId>;

const semver = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** `manifest.json` beside a plugin's built entry; bundled plugins carry the same file in their folder. */
export const PluginManifest = z
  .object({
    id: PluginId,
    version: z.string().regex(semver, 'a version is semver, like 1.2.3'),
    name: z.string().min(1),
    description: z.string().default(''),
    category: z.string().min(1).default('other'),
    protocolVersion: z.number().int().positive(),
    /** The module to load, relative to the manifest's folder. Its default export is built with the SDK. */
    entry: z.string().min(1),
    /** Whether the plugin is on before anyone has switched it. Bundled plugins default to on, user plugins to off. */
    enabledByDefault: z.boolean().optional(),
    /**
     * Bundled plugins only: `own` asks for a process of its own (a plugin that starts processes of its own, or
     * holds what its neighbours must not reach); by default bundled plugins share one. A user plugin always
     * gets its own process unless the user groups it, whatever this says.
     */
    process: z.enum(['own', 'shared']).optional(),
    /**
     * Bundled plugins with a process of their own only: `frugal` starts it with a small young generation and
     * WebAssembly compiled by V8's baseline compiler alone (see FRUGAL_V8_FLAGS): far less memory for a plugin that
     * runs WASM grammars over many files, at some speed. Ignored for a user plugin or a shared host.
     */
    memory: z.enum(['frugal']).optional(),
    /** The plugin's settings (a JSON Schema subset, size-capped): Settings shows a form from it, `/set plugin.<id>.<key>` sets them. */
    configuration: PluginConfigSchema.optional(),
    /** Declarations main installs before the plugin runs, checked like `capabilities()`' (static-contributions.ts). */
    contributes: StaticContributions.optional(),
    /** When the plugin's process starts; absent ⇒ when it is switched on. Listing any makes the plugin lazy. */
    activationEvents: ActivationEvents.optional(),
    /** A lazy plugin that stops after this many minutes without a call, back to not started (fractions allowed). */
    idleStopMinutes: z.number().positive('idleStopMinutes is a number of minutes above 0').max(1440, 'idleStopMinutes is at most 1,440 (a day)').optional(),
  })
  .superRefine((manifest, ctx) => {
    const problem = lazyStartProblem(manifest);
    if (problem) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });
export type PluginManifest = z.infer<typeof PluginManifest>;
