import { z } from 'zod';

/** One saved connection to a model server as Settings lists it: never its key, only whether one is stored. */
export const ProviderConnectionView = z.object({
  id: z.string(),
  /** The preset it was set up from ('ollama', 'custom', …): passed back as the flavor when it is edited. */
  presetId: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  dialect: z.string(),
  /** The models saved for it, the default first. */
  models: z.array(z.string()),
  hasKey: z.boolean(),
  /** New conversations use one of its models. */
  isDefault: z.boolean(),
});
export type ProviderConnectionView = z.infer<typeof ProviderConnectionView>;

/** A saved connection by its id, as the accounts store them (never a slash). */
export const ProviderConnectionId = z.object({ id: z.string().regex(/^[a-z0-9_-]{1,40}$/, 'A connection id is 1 to 40 lowercase letters, digits, _ or -.') });
export type ProviderConnectionId = z.infer<typeof ProviderConnectionId>;
