import { describe, expect, it } from 'vitest';
import { bucketKey, describeReset, formatLocal, nextReset } from './budget-period.ts';

// Dates are built from local fields, so each expectation holds in whatever time zone the tests run.
describe('budget periods in local time', () => {
  it('a day resets at the next local midnight', () => {
    expect(nextReset('day', new Date(2026, 10, 30, 23, 59, 59))).toEqual(new Date(2026, 11, 1, 0, 0, 0));
    expect(nextReset('day', new Date(2026, 10, 30, 0, 0, 0))).toEqual(new Date(2026, 11, 1));
  });

  it('the last day of the year resets on the first of January', () => {
    expect(nextReset('day', new Date(2026, 11, 31, 12))).toEqual(new Date(2027, 0, 1));
    expect(nextReset('month', new Date(2026, 11, 31, 12))).toEqual(new Date(2027, 0, 1));
  });

  it('a month resets on the 1st at local midnight, whatever its length', () => {
    expect(nextReset('month', new Date(2027, 1, 28, 18))).toEqual(new Date(2027, 2, 1));
    expect(nextReset('month', new Date(2028, 1, 29, 18))).toEqual(new Date(2028, 2, 1));
    expect(nextReset('month', new Date(2026, 0, 31, 8))).toEqual(new Date(2026, 1, 1));
  });

  it('a session never resets on the clock', () => {
    expect(nextReset('session', new Date(2026, 10, 30))).toBeNull();
    expect(describeReset('session', new Date(2026, 10, 30))).toBe('with each new session');
  });

  it('buckets follow the local calendar', () => {
    const late = new Date(2026, 10, 30, 23, 30);
    expect(bucketKey('day', late, null)).toBe('day:2026-11-30');
    expect(bucketKey('month', late, null)).toBe('month:2026-11');
    expect(bucketKey('session', late, 's1')).toBe('session:s1');
    expect(bucketKey('session', late, null)).toBeNull();
    expect(bucketKey('day', new Date(2026, 11, 1, 0, 0), null)).toBe('day:2026-12-01');
  });

  it('says when a budget resets', () => {
    expect(describeReset('day', new Date(2026, 10, 30, 15))).toBe('at midnight (2026-12-01 00:00)');
    expect(describeReset('month', new Date(2026, 10, 3, 15))).toBe('on the 1st (2026-12-01 00:00)');
    expect(formatLocal(new Date(2026, 0, 2, 3, 4))).toBe('2026-01-02 03:04');
  });
});
