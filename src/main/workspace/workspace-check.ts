import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { isInside } from '../is-inside.ts';

/** What a workspace folder may not be. */
export interface WorkspaceLimits {
  /** The user's home folder: allowed inside, never itself. */
  home: string;
  /** Amber's data folder (keys, database, plugin data): never it nor anything inside it. */
  dataDir: string;
  /** Where the app itself is installed (its code and resources): never there nor inside. */
  installDirs: readonly string[];
  platform?: NodeJS.Platform;
}

/** `missing`: refused only because nothing is there yet (the window may offer to create it). */
export type WorkspaceCheck = { ok: true; path: string } | { ok: false; reason: string; missing?: true };

// Folders of the operating system. Those in SYSTEM_TREES are refused with everything inside them; those in
// SYSTEM_ROOTS only themselves (they hold people's own folders: /home/ann/project is fine, /home is not).
const POSIX_SYSTEM_TREES = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/proc',
  '/run',
  '/sbin',
  '/snap',
  '/sys',
  '/usr',
  '/var/lib',
  '/var/log',
  '/var/cache',
  '/var/spool',
  '/var/mail',
  '/var/run',
  '/var/db',
  '/System',
  '/Library',
  '/private/etc',
  '/private/var/db',
  '/cores',
];
const POSIX_SYSTEM_ROOTS = [
  '/tmp',
  '/var',
  '/var/tmp',
  '/home',
  '/Users',
  '/opt',
  '/srv',
  '/mnt',
  '/media',
  '/Volumes',
  '/private',
  '/private/tmp',
  '/private/var',
  '/root',
];
const WINDOWS_SYSTEM_TREES = ['Windows', 'Program Files', 'Program Files (x86)', 'ProgramData'];
const WINDOWS_SYSTEM_ROOTS = ['Users'];

/** Expands a leading `~` to the home folder; anything else is returned as typed. */
export function expandHome(input: string, home: string): string {
  if (input === '~') return home;
  if (input.startsWith('~/') || input.startsWith(`~${sep}`)) return join(home, input.slice(2));
  return input;
}

function realOr(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Checks a folder the user (or the API) names as a conversation's workspace and returns its real path.
 * Refused, each with a sentence saying why: a relative or empty path, a missing folder or a file, the disk's
 * root, the home folder itself, the system's folders, the app's install folder and Amber's data folder or
 * anything inside them. Both the path as typed and its real location are checked, so a link cannot smuggle
 * a refused folder in.
 */
export function checkWorkspace(input: string, limits: WorkspaceLimits): WorkspaceCheck {
  const platform = limits.platform ?? process.platform;
  const windows = platform === 'win32';
  const caseless = windows || platform === 'darwin';
  const typed = input.trim();
  if (typed === '') return { ok: false, reason: 'Give the full path of a folder for this conversation to work in.' };
  if (typed.includes('\0')) return { ok: false, reason: 'The folder path contains a NUL character.' };
  const expanded = expandHome(typed, limits.home);
  if (!isAbsolute(expanded))
    return { ok: false, reason: `"${typed}" is not a full path; give one that starts at the disk's root (or at ~ for your home folder).` };
  const lexical = resolve(expanded);
  let info;
  try {
    info = statSync(lexical);
  } catch {
    return { ok: false, reason: `There is no folder at ${lexical}. Create it first, or choose one that exists.`, missing: true };
  }
  if (!info.isDirectory()) return { ok: false, reason: `${lexical} is a file, not a folder.` };
  const real = realOr(lexical);
  const home = realOr(limits.home);
  const dataDir = realOr(limits.dataDir);
  const installDirs = limits.installDirs.map(realOr);
  for (const path of new Set([lexical, real])) {
    const why = refusal(path, { home, dataDir, installDirs, windows, caseless });
    if (why) return { ok: false, reason: why };
  }
  return { ok: true, path: real };
}

/**
 * Checks a folder that does not exist yet as it would be once made: the path as typed, and where it lands
 * below its nearest existing parent's real location, must not be refused. Returns the path to create.
 */
export function checkNewWorkspace(input: string, limits: WorkspaceLimits): WorkspaceCheck {
  const platform = limits.platform ?? process.platform;
  const windows = platform === 'win32';
  const caseless = windows || platform === 'darwin';
  const typed = input.trim();
  if (typed === '' || typed.includes('\0')) return { ok: false, reason: 'Give the full path of the folder to create.' };
  const expanded = expandHome(typed, limits.home);
  if (!isAbsolute(expanded))
    return { ok: false, reason: `"${typed}" is not a full path; give one that starts at the disk's root (or at ~ for your home folder).` };
  const lexical = resolve(expanded);
  if (existsSync(lexical)) return checkWorkspace(lexical, limits);
  let parent = dirname(lexical);
  while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
  const landing = join(realOr(parent), relative(parent, lexical));
  const limitsReal = { home: realOr(limits.home), dataDir: realOr(limits.dataDir), installDirs: limits.installDirs.map(realOr), windows, caseless };
  for (const path of new Set([lexical, landing])) {
    const why = refusal(path, limitsReal);
    if (why) return { ok: false, reason: why };
  }
  return { ok: true, path: lexical };
}

function refusal(path: string, limits: { home: string; dataDir: string; installDirs: readonly string[]; windows: boolean; caseless: boolean }): string | null {
  const same = (a: string, b: string) => (limits.caseless ? a.toLowerCase() === b.toLowerCase() : a === b);
  const within = (folder: string) => isInside(folder, path, { caseless: limits.caseless });
  const { root } = parse(path);
  if (same(path, root)) return `${path} is the whole disk; choose a project folder instead.`;
  if (same(path, limits.home))
    return `${path} is your home folder, which holds far more than one project (keys, mail, settings); choose a folder inside it, such as ${join(limits.home, 'Amber')}.`;
  if (within(limits.dataDir))
    return `${path} is Amber's data folder or inside it (your keys, conversations and plugin data live there); tools never touch it, so it cannot be a workspace.`;
  const install = limits.installDirs.find(within);
  if (install) return `${path} is where Amber itself is installed (${install}); choose one of your own folders.`;
  const trees = limits.windows ? WINDOWS_SYSTEM_TREES.map((d) => join(root, d)) : POSIX_SYSTEM_TREES;
  const roots = limits.windows ? WINDOWS_SYSTEM_ROOTS.map((d) => join(root, d)) : POSIX_SYSTEM_ROOTS;
  const tree = trees.find(within);
  if (tree) return `${path} is a system folder (${tree}); choose one of your own folders.`;
  if (roots.some((r) => same(path, r))) return `${path} is a system folder that holds other people's or programs' folders; choose a folder inside it.`;
  return null;
}
