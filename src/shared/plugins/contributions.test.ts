import { expect, test } from 'vitest';
import { AllowanceVerdict, Contribution } from './contributions.ts';

const allowance = { kind: 'allowance', id: 'budget', scope: '*', limit: 100, unit: '%' };

test('an allowance may say it limits nothing, with a boolean and nothing else', () => {
  expect(Contribution.safeParse({ ...allowance, inactive: true }).success).toBe(true);
  expect(AllowanceVerdict.safeParse({ allowed: true, inactive: true }).success).toBe(true);
  for (const bad of ['yes', 1, null, {}]) {
    expect(Contribution.safeParse({ ...allowance, inactive: bad }).success).toBe(false);
    expect(AllowanceVerdict.safeParse({ allowed: true, inactive: bad }).success).toBe(false);
  }
});
