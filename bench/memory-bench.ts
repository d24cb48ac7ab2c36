// `npm run bench -- memory`: the memory plugin in its own process, driven as main drives it (the remember
// tool, /memory accept, the recall prompt block), over a scripted scenario of 20 conversations about 20
// services with 5 known facts each (100 facts), every conversation after the first also repeating 3 earlier
// facts (exactly, or reworded a little). Measures:
//   writes_before_accept      — memories active or recalled in suggest mode before anything is accepted (target 0);
//   duplicate_rate            — active memories beyond the 100 facts once every suggestion is accepted, per fact (target ≤ 0.05);
//   lost_facts                — facts no active memory states once all is accepted (replaced by a wrongly judged "newer" one);
//   precision_at_5            — for each service, a question about it: of the first 5 memories recalled, the
//                               share that are that service's facts; mean over the 20 questions (target ≥ 0.8);
//   precision_at_5_10k        — the same with 9,900 more memories in the store;
//   recall_ms_p50 / _p95      — one recall as a run waits for it (main → plugin process → main), at 100 and at
//                               10,000 memories, medians of RUNS renders (target at 10,000: p50 ≤ 20 ms).
// The last line of output is one JSON object.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createForkLauncher, discoverPlugins, PluginService, type PluginStateStore } from '../src/main/plugins/index.ts';
import { MemoryStore } from '../src/plugins/memory/memory-store.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const FILL = 10_000;
const root = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'amber-memory-bench-'));
const workspace = join(dir, 'project');
const dataDir = join(dir, 'memory-data');
mkdirSync(workspace);

// Twenty services, each with words of its own, so that a fact names its service as people do.
const NAMES = [
  ['billing', 'ledger'],
  ['mail', 'relay'],
  ['search', 'indexer'],
  ['photo', 'resizer'],
  ['auth', 'gateway'],
  ['invoice', 'printer'],
  ['chat', 'broker'],
  ['audit', 'trail'],
  ['pricing', 'engine'],
  ['report', 'builder'],
  ['geo', 'locator'],
  ['video', 'transcoder'],
  ['feature', 'flags'],
  ['cart', 'keeper'],
  ['sms', 'dispatcher'],
  ['ranking', 'model'],
  ['backup', 'vault'],
  ['session', 'store'],
  ['webhook', 'router'],
  ['quota', 'meter'],
] as const;
const TEAMS = [
  'Falcon',
  'Otter',
  'Maple',
  'Comet',
  'Basalt',
  'Heron',
  'Quartz',
  'Juniper',
  'Nimbus',
  'Pebble',
  'Saffron',
  'Tundra',
  'Willow',
  'Zephyr',
  'Acorn',
  'Birch',
  'Cobalt',
  'Dune',
  'Ember',
  'Fjord',
];
const CITIES = [
  'Oslo',
  'Lisbon',
  'Quito',
  'Hanoi',
  'Perth',
  'Tallinn',
  'Accra',
  'Bogota',
  'Cusco',
  'Dakar',
  'Espoo',
  'Galway',
  'Hobart',
  'Izmir',
  'Jaipur',
  'Kyoto',
  'Lagos',
  'Malmo',
  'Nantes',
  'Osaka',
];
const DBS = ['PostgreSQL', 'MySQL', 'SQLite', 'MariaDB', 'CockroachDB', 'Cassandra', 'MongoDB', 'Redis', 'DynamoDB', 'Firestore'];
const PROXIES = ['envoy', 'nginx', 'haproxy', 'traefik', 'caddy'];

interface Fact {
  service: number;
  text: string;
}

const facts: Fact[] = NAMES.flatMap(([a, b], i) => {
  const name = `${a} ${b}`;
  const code = TEAMS[(i * 7) % 20]!.toLowerCase();
  return [
    `The ${name} service listens on port ${8100 + i} behind the ${PROXIES[i % 5]} proxy`,
    `${TEAMS[i]} team in ${CITIES[i]} owns the ${name} service`,
    `Deploy ${name} by running make ship-${code}`,
    `${name[0]!.toUpperCase()}${name.slice(1)} keeps its records in a ${DBS[i % 10]} database called ${a}_${i}`,
    `Errors from ${name} are written to /srv/${code}/errors.txt`,
  ].map((text) => ({ service: i, text }));
});

/** A fact said again: the same words differently cased, or with a few words around it. */
const reworded = (text: string, n: number) => (n % 2 === 0 ? `${text.toLowerCase()}.` : `Remember: ${text} as before`);

function stateStore(): PluginStateStore {
  const states = new Map<string, boolean>();
  const settings = new Map<string, string>();
  return {
    pluginStates: () => new Map(states),
    setPluginState: (id, on) => void states.set(id, on),
    getSetting: (key) => settings.get(key) ?? null,
    setSetting: (key, value) => void (value === null ? settings.delete(key) : settings.set(key, value)),
  };
}

async function startMemory(): Promise<PluginService> {
  const { plugins, problems } = discoverPlugins({ bundledRoot: join(root, 'src/plugins'), bundledIds: ['memory'] });
  if (problems.length) throw new Error(problems.map((p) => p.reason).join('\n'));
  const service = new PluginService({
    store: stateStore(),
    dataDir: dir,
    workspace,
    plugins,
    config: () => ({ dataDir, mode: 'suggest' }),
    launcher: createForkLauncher({ execArgv: [] }),
    tickIntervalMs: 0,
  });
  await service.start();
  if (service.get('memory').state !== 'active') throw new Error(`The memory plugin is ${service.get('memory').state}: ${service.get('memory').reason}`);
  return service;
}

const render = async (service: PluginService, prompt: string): Promise<string> => {
  const rendered = await service.registries.promptBlocks.get('memory.recall')!.value.render({ sessionId: 'probe', workspace, prompt });
  return typeof rendered === 'string' ? rendered : rendered.text;
};
const recalledLines = (block: string) =>
  block
    .split('\n')
    .filter((l) => l.startsWith('- '))
    .map((l) => l.slice(2));
const question = (i: number) => {
  const [a, b] = NAMES[i]!;
  return `Tell me about the ${a} ${b} service: its port, its owner, how to deploy it, its database and where its errors go.`;
};

async function precisionAt5(service: PluginService): Promise<number> {
  let sum = 0;
  for (let i = 0; i < NAMES.length; i++) {
    const top = recalledLines(await render(service, question(i))).slice(0, 5);
    // A memory is about the service when it states one of its facts (a restatement may add a few words).
    const own = facts.filter((f) => f.service === i).map((f) => f.text.toLowerCase());
    sum += top.filter((t) => own.some((f) => t.toLowerCase().includes(f))).length / 5;
  }
  return sum / NAMES.length;
}

async function timings(service: PluginService): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    await render(service, question(r % NAMES.length));
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]! * 100) / 100;
  return { p50: at(0.5), p95: at(0.95) };
}

const pseudoRandom = (n: number) => {
  const x = Math.sin(n * 12.9898 + 78.233) * 43_758.5453;
  return x - Math.floor(x);
};

async function main() {
  let service = await startMemory();
  const tools = service.registries.tools;
  let writes = 0;
  // The scenario: conversation c tells its service's facts and repeats 3 earlier ones.
  for (let c = 0; c < 20; c++) {
    const said = facts.filter((f) => f.service === c).map((f) => f.text);
    if (c > 0) for (let k = 0; k < 3; k++) said.push(reworded(facts[Math.floor(pseudoRandom(c * 3 + k) * c * 5)]!.text, c + k));
    for (const text of said) {
      const out = await tools.execute('remember', { text, kind: 'project' }, undefined, { sessionId: `conversation-${c}`, workspace, denied: [dir] });
      if (out.isError) throw new Error(out.content.map((x) => x.text).join(''));
      writes++;
    }
  }
  const commands = service.registries.commands;
  const listed = async (verb: string) => (await commands.run(['memory'], [verb])).output;
  const activeBefore = (await listed('list')) === 'No memories are kept.' ? 0 : (await listed('list')).split('\n').length;
  let recalledBefore = 0;
  for (let i = 0; i < NAMES.length; i++) recalledBefore += recalledLines(await render(service, question(i))).length;
  const waiting = (await listed('')).split('\n').filter((l) => l.startsWith('  to review #'));
  for (const line of waiting) await commands.run(['memory'], ['accept', /#(\d+)/.exec(line)![1]!]);
  const active = (await listed('list')).split('\n').map((l) => l.replace(/^#\d+ \[[^\]]*\] /, '').toLowerCase());
  const lost = facts.filter((f) => !active.some((a) => a.includes(f.text.toLowerCase()))).length;
  const precision = await precisionAt5(service);
  const small = await timings(service);
  await service.dispose();

  // 9,900 more memories, written as the plugin writes them (varied words: what real notes look like).
  const syllables = ['ka', 'lo', 'mi', 'ter', 'van', 'dor', 'pel', 'sun', 'rix', 'bo'];
  const word = (n: number) => `${syllables[n % 10]}${syllables[Math.floor(n / 10) % 10]}${syllables[Math.floor(n / 100) % 10]}${Math.floor(n / 1000)}`;
  const store = MemoryStore.open(join(dataDir, 'memory.sqlite'));
  const fillStart = performance.now();
  store.batch(() => {
    for (let i = 0; store.count('active') < FILL; i++) {
      const text = Array.from({ length: 9 }, (_, k) => word(Math.floor(pseudoRandom(1000 + i * 9 + k) * 4000))).join(' ');
      store.write({ text, kind: 'user', scope: i % 2 === 0 ? '' : workspace, status: 'active' });
    }
  });
  const fillMs = performance.now() - fillStart;
  const total = store.count('active');
  store.close();

  service = await startMemory();
  const precisionFull = await precisionAt5(service);
  const full = await timings(service);
  await service.dispose();
  rmSync(dir, { recursive: true, force: true });

  const duplicateRate = Math.round(((active.length - (facts.length - lost)) / facts.length) * 1000) / 1000;
  const result = {
    conversations: 20,
    facts: facts.length,
    writes,
    suggested: waiting.length,
    writes_before_accept: activeBefore + recalledBefore,
    duplicate_rate: duplicateRate,
    lost_facts: lost,
    precision_at_5: Math.round(precision * 1000) / 1000,
    precision_at_5_10k: Math.round(precisionFull * 1000) / 1000,
    memories_10k: total,
    fill_10k_s: Math.round(fillMs / 100) / 10,
    recall_ms_p50_100: small.p50,
    recall_ms_p95_100: small.p95,
    recall_ms_p50_10k: full.p50,
    recall_ms_p95_10k: full.p95,
    runs: RUNS,
    pass: activeBefore + recalledBefore === 0 && duplicateRate <= 0.05 && precision >= 0.8 && precisionFull >= 0.8 && full.p50 <= 20,
  };
  console.log(
    `${writes} writes in 20 conversations → ${waiting.length} suggestions for ${facts.length} facts (duplicates ${result.duplicate_rate}, lost ${lost}); precision@5 ${result.precision_at_5} (${result.precision_at_5_10k} at ${total} memories); recall p50 ${small.p50} ms at 100, ${full.p50} ms at ${total}`,
  );
  console.log(JSON.stringify(result));
}

await main();
