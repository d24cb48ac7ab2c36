import { Emitter, type Event } from '../../shared/emitter.ts';
import { PROJECT_INSTRUCTIONS_LIMIT, type Project, type ProjectChange, type ProjectCreate } from '../../shared/projects/index.ts';
import { AmberError } from '../errors.ts';
import type { SettingsService } from '../settings/index.ts';

export interface ProjectServiceOptions {
  /** Where the projects are kept (the typed setting `projects.list`). */
  settings: Pick<SettingsService, 'get' | 'set'>;
  /**
   * Checks a folder as a conversation's workspace is checked and returns its real path; throws a typed error
   * with the reason when it is refused (missing, a file, a system folder, the data folder…).
   */
  resolveFolder: (input: string) => string;
  clock?: () => number;
}

/** What changed: the project as it is now, or its id when it was removed. */
export type ProjectChangeEvent = { kind: 'saved'; project: Project } | { kind: 'removed'; id: string };

/** The default a new conversation in a project starts with; null fields: the app's own default. */
export interface ProjectDefaults {
  model: Project['model'];
  thinkingLevel: Project['thinkingLevel'];
  policyMode: Project['policyMode'];
}

const slug = (name: string): string =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'project';

/**
 * The projects: each a workspace folder with a name, its own instructions and defaults for new conversations.
 * A conversation belongs to the project whose folder is its workspace folder, so moving a conversation to
 * another folder moves it to that folder's project; one folder is one project at most. Owns the change event.
 */
export class ProjectService {
  readonly #settings: ProjectServiceOptions['settings'];
  readonly #resolveFolder: (input: string) => string;
  readonly #clock: () => number;
  readonly #changes = new Emitter<ProjectChangeEvent>((e) => console.error('A project listener failed', e));
  /** A project was created or changed, or removed. */
  readonly onDidChange: Event<ProjectChangeEvent> = this.#changes.event;

  constructor(options: ProjectServiceOptions) {
    this.#settings = options.settings;
    this.#resolveFolder = options.resolveFolder;
    this.#clock = options.clock ?? Date.now;
  }

  /** Every project, by name. */
  list(): Project[] {
    return [...this.#settings.get('projects.list')].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The project with this id; `not_found` with a sentence when there is none. */
  get(id: string): Project {
    const project = this.#settings.get('projects.list').find((p) => p.id === id);
    if (!project) throw new AmberError('not_found', `There is no project "${id}"; it may have been removed.`);
    return project;
  }

  /** The project with this id or, failing that, this name (any case): what `/project` commands accept. */
  find(idOrName: string): Project | undefined {
    const all = this.#settings.get('projects.list');
    const wanted = idOrName.trim().toLowerCase();
    return all.find((p) => p.id === idOrName.trim()) ?? all.find((p) => p.name.toLowerCase() === wanted);
  }

  /** The project a conversation with this workspace folder belongs to, or null. */
  ofFolder(folder: string | null): Project | null {
    if (!folder) return null;
    return this.#settings.get('projects.list').find((p) => p.folder === folder) ?? null;
  }

  /** A project's folder, instructions and defaults, as the scheduled tasks and new conversations read them. */
  folderOf(id: string): string {
    return this.get(id).folder;
  }

  instructionsOf(folder: string | null): string {
    return this.ofFolder(folder)?.instructions ?? '';
  }

  defaultsOf(id: string): ProjectDefaults {
    const { model, thinkingLevel, policyMode } = this.get(id);
    return { model, thinkingLevel, policyMode };
  }

  /** Creates a project from a folder; refused with a sentence when the name or the folder is another project's. */
  create(input: ProjectCreate): Project {
    const all = this.#settings.get('projects.list');
    const name = input.name.trim();
    const folder = this.#folder(input.folder);
    this.#assertFree(all, name, folder, null);
    const base = slug(name);
    let id = base;
    for (let n = 2; all.some((p) => p.id === id); n++) id = `${base}-${n}`;
    const project: Project = {
      id,
      name,
      folder,
      instructions: (input.instructions ?? '').trim().slice(0, PROJECT_INSTRUCTIONS_LIMIT),
      model: input.model ?? null,
      thinkingLevel: input.thinkingLevel ?? null,
      policyMode: input.policyMode ?? null,
      createdAt: this.#clock(),
    };
    this.#settings.set('projects.list', [...all, project]);
    this.#changes.fire({ kind: 'saved', project });
    return project;
  }

  /** Changes the fields given; the id stays. */
  update(id: string, change: ProjectChange): Project {
    const all = this.#settings.get('projects.list');
    const current = this.get(id);
    const name = change.name !== undefined ? change.name.trim() : current.name;
    const folder = change.folder !== undefined ? this.#folder(change.folder) : current.folder;
    this.#assertFree(all, name, folder, id);
    const project: Project = {
      ...current,
      name,
      folder,
      ...(change.instructions !== undefined ? { instructions: change.instructions.trim().slice(0, PROJECT_INSTRUCTIONS_LIMIT) } : {}),
      ...(change.model !== undefined ? { model: change.model } : {}),
      ...(change.thinkingLevel !== undefined ? { thinkingLevel: change.thinkingLevel } : {}),
      ...(change.policyMode !== undefined ? { policyMode: change.policyMode } : {}),
    };
    this.#settings.set(
      'projects.list',
      all.map((p) => (p.id === id ? project : p)),
    );
    this.#changes.fire({ kind: 'saved', project });
    return project;
  }

  /** Removes the project: its conversations stay, under "No project". */
  remove(id: string): void {
    const all = this.#settings.get('projects.list');
    this.get(id);
    this.#settings.set(
      'projects.list',
      all.filter((p) => p.id !== id),
    );
    this.#changes.fire({ kind: 'removed', id });
  }

  dispose(): void {
    this.#changes.dispose();
  }

  #folder(input: string): string {
    if (input.trim() === '') throw new AmberError('invalid_input', 'Choose the folder the project works in.');
    return this.#resolveFolder(input);
  }

  #assertFree(all: readonly Project[], name: string, folder: string, self: string | null): void {
    const sameName = all.find((p) => p.id !== self && p.name.toLowerCase() === name.toLowerCase());
    if (sameName) throw new AmberError('conflict', `There is already a project named "${sameName.name}"; choose another name.`);
    const sameFolder = all.find((p) => p.id !== self && p.folder === folder);
    if (sameFolder) throw new AmberError('conflict', `${folder} is already the folder of the project "${sameFolder.name}".`);
  }
}
