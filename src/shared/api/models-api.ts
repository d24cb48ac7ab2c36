import { z } from 'zod';

/**
 * One model a conversation can switch to, with what the catalog knows of it (null where nobody says):
 * the context window in tokens, the price in US dollars per million tokens in and out, whether it reasons
 * and whether it reads images. `account` names the connection it comes from, for grouping.
 */
export const ModelChoice = z.object({
  provider: z.string(),
  modelId: z.string(),
  name: z.string(),
  reasoning: z.boolean(),
  account: z.string().optional(),
  contextWindow: z.number().int().positive().nullable().optional(),
  price: z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() }).nullable().optional(),
  images: z.boolean().nullable().optional(),
});
export type ModelChoice = z.infer<typeof ModelChoice>;

/** One account's models (a saved connection; a provider no connection names goes by its id), as `models.list` groups them. */
export const ModelAccount = z.object({ id: z.string(), name: z.string(), models: z.array(ModelChoice) });
export type ModelAccount = z.infer<typeof ModelAccount>;

/** Every model the set-up providers offer, grouped by account in the model picker's order, and the app's default model. */
export const ModelList = z.object({
  default: z.object({ provider: z.string(), modelId: z.string() }).nullable(),
  accounts: z.array(ModelAccount),
});
export type ModelList = z.infer<typeof ModelList>;

/** Whether conversations get a short title from their model after the first reply (`conversations.autoTitle`). */
export const ConversationSettings = z.object({ autoTitle: z.boolean() }).strict();
export type ConversationSettings = z.infer<typeof ConversationSettings>;

/** What "Refresh models" found: per connection, whether its server answered and how many models it lists. */
export const ModelsRefreshed = z.object({
  accounts: z.array(z.object({ id: z.string(), name: z.string(), ok: z.boolean(), models: z.number().int().nonnegative(), message: z.string() })),
});
export type ModelsRefreshed = z.infer<typeof ModelsRefreshed>;

const tokens = (n: number): string => (n >= 1_000_000 ? `${+(n / 1_000_000).toFixed(1)}M` : `${Math.round(n / 1000)}k`);
const dollars = (n: number): string => (n === 0 ? '0' : n < 0.1 ? n.toFixed(3) : n < 10 ? n.toFixed(2) : n.toFixed(0));

/** A model's known facts as short phrases ("128k context", "$0.15 / $0.60 per Mtok", "reasoning", "images"). */
export function modelFacts(m: Pick<ModelChoice, 'contextWindow' | 'price' | 'reasoning' | 'images'>): string[] {
  const facts: string[] = [];
  if (m.contextWindow) facts.push(`${tokens(m.contextWindow)} context`);
  if (m.price) facts.push(m.price.input === 0 && m.price.output === 0 ? 'free' : `$${dollars(m.price.input)} / $${dollars(m.price.output)} per Mtok`);
  if (m.reasoning) facts.push('reasoning');
  if (m.images) facts.push('images');
  return facts;
}
