import { randomInt } from 'node:crypto';

let last = 0;

/**
 * A new entry id: 16 hex digits, a per-process counter that starts from the time (1/16 ms) and never goes
 * back, then 4 random digits so two processes appending in the same instant differ. Ids made in order
 * sort in order, so an append lands on the same index pages as the one before it instead of on random
 * ones (which a fresh process must first read from disk).
 */
export function orderedId(now: number = Date.now()): string {
  last = Math.max(Math.floor(now) * 16, last + 1);
  return `${last.toString(16).padStart(12, '0')}${randomInt(0x10000).toString(16).padStart(4, '0')}`;
}
