import { Entry } from '../../shared/sessions/index.ts';

/** Entries the schema gave in this process. */
const checked = new WeakSet<object>();

/**
 * The Entry schema's reading of a value, remembering each entry it gives, so that storing such an entry (an
 * import's, checked line by line as its file was read) does not check it a second time. An entry read this
 * way must not be changed afterwards: it is stored as it is.
 */
export const checkedEntries = {
  safeParse(value: unknown): ReturnType<typeof Entry.safeParse> {
    const parsed = Entry.safeParse(value);
    if (parsed.success) checked.add(parsed.data);
    return parsed;
  },
  /** Whether `value` is an entry the schema gave (through `safeParse` above). */
  has(value: object): boolean {
    return checked.has(value);
  },
};
