import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { PluginManifest } from '../../../shared/plugins/index.ts';

export type PluginSource = 'bundled' | 'user';

/** A plugin found on disk, before it runs. */
export interface PluginDescriptor {
  manifest: PluginManifest;
  source: PluginSource;
  /** Absolute path of the module the plugin host loads. */
  entry: string;
  dir: string;
}

/** A folder that looked like a plugin but could not be read: listed so the user sees why. */
export interface DiscoveryProblem {
  dir: string;
  reason: string;
}

export interface DiscoveryOptions {
  /** Where bundled plugin folders are (src/plugins, or out/main/plugins in the Electron build). */
  bundledRoot: string;
  bundledIds: readonly string[];
  /** `<data dir>/plugins/<id>/manifest.json` with a built JS entry. */
  userRoot?: string;
  /** In a built app, bundled entries written as `.ts` are loaded as the `.js` the build produced. */
  builtEntries?: boolean;
}

export function discoverPlugins(options: DiscoveryOptions): { plugins: PluginDescriptor[]; problems: DiscoveryProblem[] } {
  const plugins: PluginDescriptor[] = [];
  const problems: DiscoveryProblem[] = [];
  const seen = new Set<string>();
  const add = (dir: string, source: PluginSource) => {
    const read = readManifest(dir, source, options.builtEntries ?? false);
    if ('reason' in read) problems.push(read);
    else if (seen.has(read.manifest.id)) problems.push({ dir, reason: `Another plugin already has the id '${read.manifest.id}'.` });
    else {
      seen.add(read.manifest.id);
      plugins.push(read);
    }
  };
  for (const id of options.bundledIds) add(join(options.bundledRoot, id), 'bundled');
  if (options.userRoot && existsSync(options.userRoot)) {
    for (const name of readdirSync(options.userRoot, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (name.isDirectory()) add(join(options.userRoot, name.name), 'user');
    }
  }
  return { plugins, problems };
}

function readManifest(dir: string, source: PluginSource, built: boolean): PluginDescriptor | DiscoveryProblem {
  const file = join(dir, 'manifest.json');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return { dir, reason: `Could not read ${file}: ${e instanceof Error ? e.message : String(e)}` };
  }
  const parsed = PluginManifest.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { dir, reason: `${file}: ${issue.path.join('.') || 'manifest'}: ${issue.message}` };
  }
  const manifest = parsed.data;
  if (source === 'user' && manifest.id !== dir.split(/[\\/]/).pop()) return { dir, reason: `The plugin's folder must be named after its id '${manifest.id}'.` };
  let entryName = manifest.entry;
  if (built && source === 'bundled') entryName = entryName.replace(/\.ts$/, '.js');
  if (source === 'user' && !/\.(m?js|cjs)$/.test(entryName)) return { dir, reason: `A user plugin's entry must be built JavaScript, not '${entryName}'.` };
  const entry = resolve(dir, entryName);
  const rel = relative(dir, entry);
  if (isAbsolute(entryName) || rel.startsWith('..')) return { dir, reason: `The entry '${manifest.entry}' must lie inside the plugin's folder.` };
  if (!existsSync(entry)) return { dir, reason: `The entry ${entry} does not exist${source === 'user' ? ' (build the plugin first)' : ''}.` };
  return { manifest, source, entry, dir };
}
