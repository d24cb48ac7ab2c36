// `npm run test:mcp-conformance`: runs the pinned MCP conformance suite's client scenarios against Amber's client
// (conformance-client.ts), each against the loopback test server the suite starts for it, and compares what
// passed with expected-passing.json. A listed scenario that fails (twice in a row: a loaded machine can make a
// timing check late once) is a regression and fails the run; one that passes unlisted is reported, to be added.
// The scenarios of the 2025-06-18 and 2025-11-25 specifications and the 2025-03-26 backward-compatibility ones
// are required; draft and extension ones are reported, not required.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const CLI = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');
const CLIENT = join(import.meta.dirname, 'conformance-client.ts');
/** The client under test, as the suite runs it (it appends the server's URL). */
export const CLIENT_COMMAND = `"${process.execPath}" "${CLIENT}"`;
export const EXPECTED_FILE = join(import.meta.dirname, 'expected-passing.json');
/** The groups that must pass; the others (draft, extension) are reported only. */
export const REQUIRED_GROUPS = ['2025-06-18', '2025-11-25', '2025-03-26'] as const;

export interface Scenario {
  name: string;
  /** The specification versions it belongs to, as the suite lists them (`2025-11-25`, `draft`, `extension`). */
  groups: string[];
}

export interface ScenarioOutcome {
  scenario: Scenario;
  passed: boolean;
  /** The checks that failed, `id: message`. */
  failures: string[];
}

export interface ConformanceReport {
  outcomes: ScenarioOutcome[];
  /** Listed in expected-passing.json but failed (twice). */
  regressions: string[];
  /** Passed but not listed. */
  newlyPassing: string[];
  /** Listed but not a client scenario of the pinned suite. */
  unknown: string[];
  /** Per group: passed of total. */
  groups: Record<string, { passed: number; total: number }>;
}

function run(args: string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 120_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The client scenarios of the pinned suite, from `conformance list`. */
export async function listScenarios(): Promise<Scenario[]> {
  const { code, stdout, stderr } = await run(['list']);
  if (code !== 0) throw new Error(`conformance list failed: ${stderr}`);
  const client = stdout.slice(stdout.indexOf('Client scenarios'));
  const scenarios: Scenario[] = [];
  for (const m of client.matchAll(/^\s*-\s+(\S+)\s+\[([^\]]*)\]/gm)) scenarios.push({ name: m[1]!, groups: m[2]!.split(',').map((g) => g.trim()) });
  if (scenarios.length === 0) throw new Error(`conformance list named no client scenario:\n${stdout}`);
  return scenarios;
}

function findChecks(dir: string): string | null {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      const found = findChecks(path);
      if (found) return found;
    } else if (name === 'checks.json') return path;
  }
  return null;
}

/** Runs one scenario with the suite's own runner; passed when it exits 0 and no check failed. */
export async function runScenario(scenario: Scenario, outDir: string, command = CLIENT_COMMAND): Promise<ScenarioOutcome> {
  const dir = mkdtempSync(join(outDir, 'scenario-'));
  const { code, stdout, stderr } = await run(['client', '--command', command, '--scenario', scenario.name, '-o', dir, '--timeout', '30000']);
  const file = findChecks(dir);
  const checks = file ? (JSON.parse(readFileSync(file, 'utf8')) as { id: string; status: string; errorMessage?: string }[]) : [];
  const failures = checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage ?? 'failed'}`);
  if (checks.length === 0) failures.push(`no checks were recorded (exit ${code}): ${(stderr || stdout).trim().slice(-600)}`);
  return { scenario, passed: code === 0 && failures.length === 0, failures };
}

/** Runs `items` through `work`, at most `limit` at a time, answers in order. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export function readExpected(): string[] {
  return (JSON.parse(readFileSync(EXPECTED_FILE, 'utf8')) as { passing: string[] }).passing;
}

/** Runs every client scenario of the pinned suite and compares with the expected list. */
export async function runConformance(options: { concurrency?: number; only?: readonly string[]; command?: string } = {}): Promise<ConformanceReport> {
  const all = await listScenarios();
  const scenarios = options.only ? all.filter((s) => options.only!.includes(s.name)) : all;
  const expected = readExpected();
  const outDir = mkdtempSync(join(tmpdir(), 'amber-mcp-conformance-'));
  try {
    const outcomes = await pool(scenarios, options.concurrency ?? 3, async (scenario) => {
      const first = await runScenario(scenario, outDir, options.command);
      return first.passed || !expected.includes(scenario.name) ? first : await runScenario(scenario, outDir, options.command);
    });
    const groups: ConformanceReport['groups'] = {};
    for (const o of outcomes) {
      for (const g of o.scenario.groups) {
        groups[g] ??= { passed: 0, total: 0 };
        groups[g].total++;
        if (o.passed) groups[g].passed++;
      }
    }
    const names = new Set(all.map((s) => s.name));
    return {
      outcomes,
      regressions: outcomes.filter((o) => !o.passed && expected.includes(o.scenario.name)).map((o) => o.scenario.name),
      newlyPassing: outcomes.filter((o) => o.passed && !expected.includes(o.scenario.name)).map((o) => o.scenario.name),
      unknown: expected.filter((n) => !names.has(n)),
      groups,
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The report in lines: each scenario, then each group's count, then what changed. */
export function describeReport(report: ConformanceReport): string {
  const lines = report.outcomes.map(
    (o) => `${o.passed ? 'pass' : 'FAIL'}  ${o.scenario.name} [${o.scenario.groups.join(',')}]${o.passed ? '' : `  ${o.failures.join('; ').slice(0, 400)}`}`,
  );
  lines.push('');
  for (const [group, { passed, total }] of Object.entries(report.groups).sort()) {
    const required = (REQUIRED_GROUPS as readonly string[]).includes(group);
    lines.push(`${group}${required ? '' : ' (reported, not required)'}: ${passed}/${total} passing`);
  }
  if (report.regressions.length) lines.push('', `Regressions (listed as passing, failed twice): ${report.regressions.join(', ')}`);
  if (report.unknown.length) lines.push('', `expected-passing.json lists what the suite does not have: ${report.unknown.join(', ')}`);
  if (report.newlyPassing.length) lines.push('', `Passing now, not yet in expected-passing.json (add them): ${report.newlyPassing.join(', ')}`);
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const only = process.argv.slice(2);
  const report = await runConformance(only.length ? { only } : {});
  console.log(describeReport(report));
  process.exit(report.regressions.length > 0 || report.unknown.length > 0 ? 1 : 0);
}
