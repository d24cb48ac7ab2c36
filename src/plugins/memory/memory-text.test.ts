import { describe, expect, it } from 'vitest';
import { anyWordQuery, compareTexts, contentHash, wordSimilarity } from './memory-text.ts';

const thresholds = { near: 0.8, subject: 0.5 };

describe('memory text', () => {
  it('hashes the same words alike whatever their case, spacing and final stop', () => {
    expect(contentHash('The user  prefers TABS.')).toBe(contentHash('the user prefers tabs'));
    expect(contentHash('The user prefers tabs')).not.toBe(contentHash('The user prefers spaces'));
  });

  it('judges a restatement a repeat, a changed value or a one-word change a replacement, and facts of one pattern distinct', () => {
    expect(compareTexts('The user prefers tabs over spaces', 'the user prefers tabs over spaces always', thresholds)).toBe('repeat');
    expect(compareTexts('The user prefers tabs except in YAML files', 'The user prefers tabs', thresholds)).toBe('repeat');
    expect(compareTexts('The database is PostgreSQL 14', 'The database is PostgreSQL 16 now', thresholds)).toBe('replace');
    expect(compareTexts('The user lives in Lisbon', 'The user lives in Porto', thresholds)).toBe('replace');
    expect(compareTexts('Deploy billing ledger by running make ship', 'Remember: deploy billing ledger by running make ship as before', thresholds)).toBe(
      'replace',
    );
    expect(
      compareTexts(
        'The billing ledger service listens on port 8100 behind the envoy proxy',
        'The mail relay service listens on port 8101 behind the envoy proxy',
        thresholds,
      ),
    ).toBe('distinct');
    expect(compareTexts('The user lives in Lisbon', 'The build uses make', thresholds)).toBe('distinct');
    expect(wordSimilarity('alpha beta', 'gamma delta')).toBe(0);
  });

  it('builds a full-text query of quoted words only, whatever the text holds', () => {
    expect(anyWordQuery(`Robert'); DROP TABLE "x" OR NEAR(y)*`)).toBe('"robert" OR "drop" OR "table" OR "near"');
    expect(anyWordQuery('the a of ?!')).toBeNull();
  });
});
