// `npm run bench -- evals [runs]`: opening a large eval report, on a temp data folder:
//   library_get_p50_ms — main reads the eval's runs.jsonl, scores it and returns its first page (what evals.get does);
//   window_open_p50_ms — in Chromium on the headless shell: Ctrl+Shift+E until the models table and the first
//                        page of runs (200) are on screen, the view closed and opened again 7 times.
// The eval has `runs` runs (default 1,000: 50 tasks × 4 models × 5 tries). The last line is one JSON object.
import { performance } from 'node:perf_hooks';
import { EvalLibrary } from '../src/main/evals/index.ts';
import { seedEval } from '../tests/fixtures/eval-records.ts';
import { startAmber } from '../tests/browser/harness.ts';

const runs = Number(process.argv[2] ?? 1000);
const models = ['openai/gpt-5', 'anthropic/claude-sonnet-4-5', 'google/gemini-2.5-pro', 'local/qwen3-coder'];
const attempts = 5;
const taskCount = Math.max(1, Math.round(runs / (models.length * attempts)));
const tasks = Array.from({ length: taskCount }, (_, i) => `task-${String(i).padStart(3, '0')}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (n: number) => Number(n.toFixed(1));

let seeded = 0;
const amber = await startAmber({
  seed: (shell) => {
    seeded = seedEval(shell.app.dataDir, {
      evalId: 'bench-eval',
      suite: 'bench',
      models,
      tasks,
      attempts,
      passes: (task, model, attempt) => (task.charCodeAt(task.length - 1) + model.length + attempt) % 4 !== 0,
    }).records.length;
  },
});
try {
  const library = new EvalLibrary(amber.shell.app.dataDir);
  const gets: number[] = [];
  for (let i = 0; i < 11; i++) {
    const start = performance.now();
    library.get('bench-eval');
    gets.push(performance.now() - start);
  }
  const { page } = amber;
  await amber.open();
  const opens: number[] = [];
  for (let i = 0; i < 7; i++) {
    const start = performance.now();
    await page.keyboard.press('Control+Shift+E');
    await page.getByTestId('eval-models').waitFor();
    await page.locator('[data-testid=eval-runs] li').nth(199).waitFor();
    opens.push(performance.now() - start);
    await page.keyboard.press('Escape');
    await page.getByTestId('evals-view').waitFor({ state: 'detached' });
  }
  console.log(
    JSON.stringify({
      runs: seeded,
      library_get_p50_ms: round(median(gets)),
      window_open_p50_ms: round(median(opens)),
      window_open_max_ms: round(Math.max(...opens)),
    }),
  );
} finally {
  await amber.close();
}
