// The pinned MCP conformance suite's client scenarios against Amber's MCP connection (run-conformance.ts), as
// part of `npm test`: every scenario listed in expected-passing.json must still pass. The whole run is also
// `npm run test:mcp-conformance`, which prints each scenario and the count per specification version.
import { expect, test } from 'vitest';
import { describeReport, listScenarios, readExpected, REQUIRED_GROUPS, runConformance } from './run-conformance.ts';

test('the expected list names only client scenarios of the pinned suite, each of a required version or reported', async () => {
  const scenarios = await listScenarios();
  const names = new Set(scenarios.map((s) => s.name));
  expect(readExpected().filter((n) => !names.has(n))).toEqual([]);
  // What the issue counts: the 2025-06-18 and 2025-11-25 scenarios with the 2025-03-26 backward-compatibility ones.
  const required = scenarios.filter((s) => s.groups.some((g) => (REQUIRED_GROUPS as readonly string[]).includes(g)));
  expect(required.length).toBe(20);
});

test('every conformance scenario that passed still passes', { timeout: 300_000 }, async () => {
  const report = await runConformance();
  const summary = describeReport(report);
  expect(report.regressions, summary).toEqual([]);
  expect(report.outcomes.length).toBeGreaterThanOrEqual(20);
});

test('a client that fails a listed scenario is a regression, after a second try', async () => {
  const report = await runConformance({ only: ['initialize'], command: `"${process.execPath}" -e "process.exit(1)"` });
  expect(report.outcomes).toEqual([expect.objectContaining({ passed: false })]);
  expect(report.regressions).toEqual(['initialize']);
  expect(describeReport(report)).toContain('Regressions (listed as passing, failed twice): initialize');
});
