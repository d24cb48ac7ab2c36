import { createHash } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { lstat, open, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentConfirmations } from '../agent-definitions/index.ts';
import { AmberError } from '../errors.ts';
import { isInside } from '../is-inside.ts';
import { parseSkillFile, SkillName } from './skill-file.ts';

/** The workspace's skills, relative to its root. */
export const WORKSPACE_SKILLS_DIR = join('.amber', 'skills');
/** The largest SKILL.md read; a bigger one is refused with a problem. */
export const SKILL_FILE_LIMIT = 64 * 1024;
/** The most files of a skill folder the skill tool lists besides SKILL.md. */
export const SKILL_FILES_LISTED = 50;
/** The most folders of a skill walked to list its files. */
const SKILL_FOLDERS_WALKED = 200;

export type SkillSource = 'user' | 'workspace';

/** One skill found on disk. */
export interface Skill {
  name: string;
  description: string;
  source: SkillSource;
  /** The skill's folder (its real path). */
  dir: string;
  /** SKILL.md's instructions, after the front matter. */
  body: string;
  /** The folder's other files, relative to it, sorted; at most SKILL_FILES_LISTED. */
  files: string[];
  /** True when the folder holds more files than were listed. */
  moreFiles: boolean;
  /** SKILL.md's text and the listed files' names and contents: what a confirmation remembers. */
  hash: string;
  /** False when the user switched it off: it is neither listed nor loaded. */
  enabled: boolean;
}

/** A workspace skill waiting for the user's confirmation (new, or changed since it was confirmed). */
export interface PendingSkill {
  skill: Skill;
  /** True when an earlier version was confirmed and the skill changed since. */
  changed: boolean;
}

/** Everything `/skills` shows: what may be used, what waits for a confirmation, what was skipped. */
export interface SkillScan {
  /** The user's and the workspace's confirmed skills, those switched off included (`enabled` false). */
  skills: Skill[];
  pending: PendingSkill[];
  /** Skills refused, each a sentence naming the file and what is wrong with it. */
  problems: string[];
}

/** The user's on/off choice per skill name. */
export interface SkillSwitches {
  isOff(name: string): boolean;
  setOff(name: string, off: boolean): void;
}

export interface SkillLibraryOptions {
  /** The user's own skills (the data folder's `skills/`). */
  userDir: string;
  /** The workspace skills the user confirmed, per workspace: name → hash (the agent definitions' kind of record). */
  confirmations: AgentConfirmations;
  /** Which skills the user switched off, by name (the app keeps them in the `skills.off` setting). Default: none, and none can be. */
  switches?: SkillSwitches;
  /** True when some workspace skill was ever confirmed (so some conversation may have one). Default: never. */
  confirmedAnywhere?: () => boolean;
  /** Where a refused skill is reported besides scan().problems. Default: console.warn. */
  log?: (message: string) => void;
}

/** The most bytes of a skill's other files read into its hash; past it, a file counts by its size and time. */
const SKILL_HASH_BUDGET = 1024 * 1024;

/**
 * What a confirmation remembers of a skill: SKILL.md, and each listed file's name and content (within a
 * budget; past it, size and modification time, so a change still asks again). Links are never read.
 */
async function hashOf(dir: string, text: string, files: readonly string[]): Promise<string> {
  const hash = createHash('sha256').update(text);
  let budget = SKILL_HASH_BUDGET;
  for (const file of files) {
    hash.update(`\0${file}\0`);
    const handle = await open(join(dir, file), constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => null);
    if (handle === null) {
      hash.update('unreadable');
      continue;
    }
    try {
      const info = await handle.stat();
      if (info.size <= budget) {
        budget -= info.size;
        hash.update(await handle.readFile());
      } else hash.update(`${info.size}:${info.mtimeMs}`);
    } finally {
      await handle.close();
    }
  }
  return hash.digest('hex');
}

/**
 * The skills the model may load: the user's (`<data>/skills/NAME/SKILL.md`) and the workspace's
 * (`.amber/skills/NAME/SKILL.md`, each offered only once the user confirmed it as it is now; a change asks
 * again). A workspace skill replaces one of yours of the same name. Confinement: a skill folder or SKILL.md
 * that is a link is refused, SKILL.md is opened without following links, links inside the folder are not
 * listed. Read at each call, so an edit shows at once. Never throws on a bad skill: it is skipped and named.
 */
export class SkillLibrary {
  readonly #options: SkillLibraryOptions;
  readonly #log: (message: string) => void;
  readonly #logged = new Set<string>();

  constructor(options: SkillLibraryOptions) {
    this.#options = options;
    this.#log = options.log ?? ((m) => console.warn(m));
  }

  /** The skills that may be used: the user's and the workspace's confirmed ones, by name, less those switched off. */
  async list(workspaceRoot?: string): Promise<Skill[]> {
    return (await this.scan(workspaceRoot)).skills.filter((s) => s.enabled);
  }

  /** True when some skill could be offered in some conversation: the user has one, or confirmed a workspace's. */
  async any(): Promise<boolean> {
    if (this.#options.confirmedAnywhere?.() === true) return true;
    // Asked before every model call (the skill tool is listed only while this holds): without a skills folder,
    // one synchronous check answers, instead of a round trip through the file system's thread pool.
    if (!existsSync(this.#options.userDir)) return false;
    return (await this.#readRoot(this.#options.userDir, 'user', [])).length > 0;
  }

  /**
   * Switches a skill on or off by name, for every workspace (a name that is not found now still is switched, so
   * a skill that appears later keeps the choice). Throws `invalid_input` for a name no skill can have.
   */
  setEnabled(name: string, enabled: boolean): void {
    if (!SkillName.safeParse(name).success) throw new AmberError('invalid_input', `${name} is not a skill name (1–64 of a-z, 0-9 and -).`);
    if (!this.#options.switches) throw new AmberError('conflict', 'Skills cannot be switched off here.');
    this.#options.switches.setOff(name, !enabled);
  }

  /**
   * Confirms one waiting workspace skill by name, or all of them, as they are now. Returns the names
   * confirmed; throws `not_found` when `name` is not a waiting skill of this workspace.
   */
  async confirm(workspaceRoot: string, name: string | 'all'): Promise<string[]> {
    const root = await realpath(workspaceRoot).catch(() => {
      throw new AmberError('not_found', `The workspace folder ${workspaceRoot} cannot be found, so none of its skills can be confirmed.`);
    });
    const pending = (await this.scan(root)).pending;
    const chosen = name === 'all' ? pending : pending.filter((p) => p.skill.name === name);
    if (name !== 'all' && chosen.length === 0) {
      const names = pending.map((p) => p.skill.name);
      throw new AmberError(
        'not_found',
        names.length === 0
          ? `No skill of this workspace waits for a confirmation (there is none named ${name}).`
          : `No skill named ${name} waits for a confirmation; waiting: ${names.join(', ')}.`,
      );
    }
    if (chosen.length === 0) return [];
    const confirmed = { ...this.#options.confirmations.get(root) };
    for (const p of chosen) confirmed[p.skill.name] = p.skill.hash;
    this.#options.confirmations.set(root, confirmed);
    return chosen.map((p) => p.skill.name);
  }

  async scan(workspaceRoot?: string): Promise<SkillScan> {
    const problems: string[] = [];
    const user = await this.#readRoot(this.#options.userDir, 'user', problems);
    let workspace: Skill[] = [];
    let confirmed: Readonly<Record<string, string>> = {};
    if (workspaceRoot !== undefined) {
      const root = await realpath(workspaceRoot).catch(() => null);
      if (root !== null) {
        workspace = await this.#readWorkspace(root, problems);
        confirmed = this.#options.confirmations.get(root);
      }
    }
    const pending: PendingSkill[] = [];
    const byName = new Map<string, Skill>();
    for (const s of user) byName.set(s.name, s);
    for (const w of workspace) {
      const known = confirmed[w.name];
      if (known === w.hash) byName.set(w.name, w);
      else pending.push({ skill: w, changed: known !== undefined });
    }
    // Each refused skill is logged once per problem, not at every read.
    for (const p of problems) {
      if (this.#logged.has(p)) continue;
      this.#logged.add(p);
      this.#log(`Skill skipped: ${p}`);
    }
    return { skills: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), pending, problems };
  }

  async #readWorkspace(root: string, problems: string[]): Promise<Skill[]> {
    const dir = join(root, WORKSPACE_SKILLS_DIR);
    // The folder may be a link; what it names must still be inside the workspace.
    const real = await realpath(dir).catch(() => null);
    if (real === null) return [];
    if (!isInside(root, real)) {
      problems.push(`${dir}: the folder leads outside the workspace; its skills are not read.`);
      return [];
    }
    return this.#readRoot(real, 'workspace', problems);
  }

  async #readRoot(dir: string, source: SkillSource, problems: string[]): Promise<Skill[]> {
    let names: string[];
    let root: string;
    try {
      root = await realpath(dir);
      names = (await readdir(root)).sort();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${dir}: the folder cannot be read (${(e as Error).message}).`);
      return [];
    }
    const found: Skill[] = [];
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const skill = await this.#readSkill(root, name, source, problems);
      if (skill) found.push(skill);
    }
    return found;
  }

  async #readSkill(root: string, folderName: string, source: SkillSource, problems: string[]): Promise<Skill | null> {
    const dir = join(root, folderName);
    const info = await lstat(dir).catch(() => null);
    if (info === null) return null;
    if (info.isSymbolicLink()) {
      problems.push(`${dir}: the skill folder is a link; a skill must be a real folder, so it is not read.`);
      return null;
    }
    if (!info.isDirectory()) return null;
    const path = join(dir, 'SKILL.md');
    const fileInfo = await lstat(path).catch(() => null);
    if (fileInfo === null) {
      problems.push(`${path}: the skill folder has no SKILL.md.`);
      return null;
    }
    if (fileInfo.isSymbolicLink()) {
      problems.push(`${path}: the file is a link; a skill's SKILL.md must be a file of its own folder, so it is not read.`);
      return null;
    }
    if (!fileInfo.isFile()) {
      problems.push(`${path}: not a file.`);
      return null;
    }
    const text = await readConfined(path, problems);
    if (text === null) return null;
    const read = parseSkillFile(text, { path, folderName });
    if (!read.ok) {
      problems.push(read.problem);
      return null;
    }
    const { files, more } = await listFiles(dir);
    return {
      ...read.skill,
      source,
      dir,
      files,
      moreFiles: more,
      hash: await hashOf(dir, text, files),
      enabled: this.#options.switches?.isOff(read.skill.name) !== true,
    };
  }
}

/** Opens SKILL.md without following a link (a swap after the lstat still cannot lead out) and reads at most the limit. */
async function readConfined(path: string, problems: string[]): Promise<string | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    problems.push(`${path}: the file cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
    return null;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      problems.push(`${path}: not a file.`);
      return null;
    }
    if (info.size > SKILL_FILE_LIMIT) {
      problems.push(`${path}: the file is larger than ${SKILL_FILE_LIMIT / 1024} KB.`);
      return null;
    }
    const buffer = Buffer.alloc(SKILL_FILE_LIMIT + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > SKILL_FILE_LIMIT) {
      problems.push(`${path}: the file is larger than ${SKILL_FILE_LIMIT / 1024} KB.`);
      return null;
    }
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The folder's files besides SKILL.md, relative and sorted, breadth first; links (files or folders) are never listed or followed. */
async function listFiles(dir: string): Promise<{ files: string[]; more: boolean }> {
  const files: string[] = [];
  const queue: string[] = [''];
  let more = false;
  // A deep tree of empty folders is not walked to its end.
  let folders = 0;
  while (queue.length > 0) {
    if (++folders > SKILL_FOLDERS_WALKED) {
      more = true;
      break;
    }
    const rel = queue.shift()!;
    const entries = await readdir(join(dir, rel), { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) queue.push(path);
      else if (entry.isFile() && path !== 'SKILL.md') {
        if (files.length >= SKILL_FILES_LISTED) more = true;
        else files.push(path);
      }
    }
    if (more) break;
  }
  return { files: files.sort(), more };
}
