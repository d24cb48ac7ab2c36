// The serious and critical WCAG 2.1 A/AA violations axe finds on a page (or inside one part of it), for the
// browser tests of one feature; accessibility.test.ts walks every screen with its own copy of this check.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// The app's CSP forbids inline scripts, so axe goes in through the debugger protocol.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Violation = { id: string; impact: string | null; nodes: { target: string[] }[] };

/** `id (impact) target` for each serious or critical violation; `within`: a CSS selector to audit only that part. */
export async function seriousViolations(page: Page, within?: string): Promise<string[]> {
  // Colours are measured once the screen has settled: a dialog fading in is not yet its final colour.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished),
    ),
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const violations = await page.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run(ctx: Element | Document, opts: unknown): Promise<{ violations: Violation[] }> } }).axe;
    const context = selector ? document.querySelector(selector)! : document;
    const result = await axe.run(context, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations;
  }, within);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) ${n.target.join(' ')}`));
}
