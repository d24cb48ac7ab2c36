import { z } from 'zod';
import { PanelViewModel } from '../plugins/index.ts';

// Schemas of the side panels: plugin-contributed panels (view models), wallets and allowances.

export const PanelView = z.object({ ...PanelViewModel.shape, pluginId: z.string() });
export type PanelView = z.infer<typeof PanelView>;

export const WalletView = z.object({
  id: z.string(),
  provider: z.string(),
  /** The name of the saved account whose id `provider` is (what the window shows); absent when none is saved. */
  account: z.string().optional(),
  pluginId: z.string(),
  /** Null while the balance is not known (never read, or every read failed): the window says so, never "0". */
  balance: z.number().nullable(),
  currency: z.string(),
  /** Epoch ms of the last refresh this run saw; null before the first. */
  refreshedAt: z.number().nullable(),
  /** The last refresh's failure, as a sentence. */
  error: z.string().nullable(),
});
export type WalletView = z.infer<typeof WalletView>;

export const WalletListing = z.object({
  wallets: z.array(WalletView),
  /** Below this balance a wallet shows a warning; null: never. */
  threshold: z.number().nullable(),
});
export type WalletListing = z.infer<typeof WalletListing>;

export const AllowanceView = z.object({
  id: z.string(),
  pluginId: z.string(),
  spent: z.number(),
  limit: z.number(),
  /** As the plugin gives it ('usd', 'tokens', '%', 'calls'…). */
  unit: z.string(),
  /** What the unit measures. */
  measure: z.enum(['money', 'tokens', 'other']),
  /** The provider it guards, or '*' for every provider call. */
  scope: z.string(),
  /** The name of the saved account whose id `scope` is (what the window shows); absent for '*' or when none is saved. */
  account: z.string().optional(),
  /** When it counts from zero again, if the plugin says. */
  period: z.enum(['session', 'day', 'month']).nullable(),
  resetsAt: z.number().nullable(),
});
export type AllowanceView = z.infer<typeof AllowanceView>;
