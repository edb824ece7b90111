import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

// What a person with a screen reader or a finger meets, checked the same way in every spec that
// imports it: axe's serious and critical findings, sideways scrolling, and buttons a finger can hit.

/** No serious or critical axe finding on what the page shows now (open dialogs included). */
export async function expectAccessible(page: Page) {
  // Contrast is judged on the settled page: a control caught halfway through a fade (the floating
  // Help & Support button's opacity transition after a resize) would be measured against a
  // blend of itself and what is behind it. Endless animations (spinners) are not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** At 390 and 1280 px: no sideways scroll, axe clean, a full-page screenshot in `dir` (the page is left at 1280). */
export async function checkAtBothWidths(page: Page, dir: string, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The page is no wider than the window (nothing scrolls sideways). */
export async function expectNoSidewaysScroll(page: Page) {
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(scroll, `page is ${scroll} px wide in a ${inner} px window`).toBeLessThanOrEqual(inner);
}

/**
 * Each visible button is at least `min` px high and wide and is what a tap at its centre reaches
 * (elementFromPoint: nothing covers it). Playwright's click would pass through what a finger cannot.
 */
export async function expectTappable(buttons: Locator, min = 44) {
  const report = await buttons.evaluateAll((els) =>
    els
      .filter((el) => (el as HTMLElement).offsetParent !== null || el.closest('dialog[open]'))
      .map((el) => {
        el.scrollIntoView({ block: 'center' });
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {
          name: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim(),
          width: Math.round(r.width),
          height: Math.round(r.height),
          hit: hit === el || el.contains(hit),
        };
      }),
  );
  expect(report.length).toBeGreaterThan(0);
  for (const b of report) {
    expect(b.hit, `${b.name}: something else is under its centre`).toBe(true);
    expect(Math.min(b.width, b.height), `${b.name}: ${b.width}x${b.height} px`).toBeGreaterThanOrEqual(min);
  }
}
