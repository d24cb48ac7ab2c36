// `npm run bench -- plan [depth]`: what the plan (the todo tool's checklist) costs on a long branch, on a real
// SQLite file in a temp folder:
//   cold_no_plan_ms    — the first read of a branch `depth` entries deep that has no plan (the whole branch walked);
//   cold_plan_root_ms  — the same with the plan at the root (walked to it);
//   cold_plan_near_ms  — the plan 10 entries above the leaf (the usual case while a task runs);
//   write_p50_ms       — the todo tool's write: one entry appended and the change announced;
//   append_p50_ms      — a plain append to a conversation whose plan is followed (what each turn pays).
// Cold reads are medians of 5 fresh services. The last line is one JSON object.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PlanService } from '../src/main/plan/index.ts';
import { SessionStore } from '../src/main/sessions/index.ts';
import type { EntryInput } from '../src/shared/sessions/index.ts';

const depth = Number(process.argv[2] ?? 10_000);
const dir = mkdtempSync(join(tmpdir(), 'amber-plan-bench-'));
const store = SessionStore.open(join(dir, 'amber.db'));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (n: number) => Number(n.toFixed(2));
const plan: EntryInput = { type: 'custom', customType: 'amber.plan', data: { items: [{ text: 'a step', status: 'in_progress' }] } };
const message = (i: number): EntryInput => ({ type: 'message', message: { role: 'user', content: `message ${i} `.repeat(20), timestamp: i } });

/** A conversation `depth` entries deep, with the plan entry at `planAt` (an index from the root), or none. */
function conversation(planAt: number | null): string {
  const id = store.create({ title: 'bench' }).id;
  const inputs = Array.from({ length: depth }, (_, i) => (i === planAt ? plan : message(i)));
  for (let i = 0; i < depth; i += 1000) store.appendMany(id, inputs.slice(i, i + 1000));
  return id;
}

function coldRead(sessionId: string): number {
  const times: number[] = [];
  for (let r = 0; r < 5; r++) {
    const service = new PlanService({ store });
    const start = performance.now();
    service.current(sessionId);
    times.push(performance.now() - start);
    service.dispose();
  }
  return round(median(times));
}

try {
  const none = conversation(null);
  const root = conversation(0);
  const near = conversation(depth - 10);
  const figures: Record<string, number> = { depth };
  figures.cold_no_plan_ms = coldRead(none);
  figures.cold_plan_root_ms = coldRead(root);
  figures.cold_plan_near_ms = coldRead(near);
  const service = new PlanService({ store });
  service.current(none);
  const writes: number[] = [];
  for (let i = 0; i < 100; i++) {
    const start = performance.now();
    service.write(none, [{ text: `step ${i}`, status: 'in_progress' }]);
    writes.push(performance.now() - start);
  }
  const appends: number[] = [];
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    store.append(none, message(i));
    appends.push(performance.now() - start);
  }
  service.dispose();
  figures.write_p50_ms = round(median(writes));
  figures.append_p50_ms = round(median(appends));
  console.log(JSON.stringify(figures));
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
