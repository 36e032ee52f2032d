import { expect, test, type Locator, type Page } from '@playwright/test';
import { watchProblems } from './helpers';

// classroom=1 on the opening lesson: the policy tree, the return chart, the lesson's verdict and the
// tour's current step on one screen, every text at least 20 px at 1366×768; Step one turn works there.

const CLASSROOM = '/#v=1&lesson=reverse-escapes-the-exit&classroom=1';

async function onScreen(page: Page, locator: Locator, what: string): Promise<void> {
  const box = await locator.boundingBox();
  const vp = page.viewportSize()!;
  expect(box, `${what} has a box`).not.toBeNull();
  expect(box!.y, `${what}: top inside the screen`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${what}: bottom inside the screen`).toBeLessThanOrEqual(vp.height + 1);
  expect(box!.x, `${what}: left inside the screen`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what}: right inside the screen`).toBeLessThanOrEqual(vp.width + 1);
}

/** Every visible element of the classroom with text of its own, and its computed font size, below `min`. */
function smallText(page: Page, min: number) {
  return page.getByTestId('classroom').evaluate((root, limit) => {
    const out: string[] = [];
    const all = [root, ...Array.from(root.querySelectorAll('*'))];
    for (const el of all) {
      const own = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
      if (!own || el.closest('title, [hidden], .sr-only, .visually-hidden')) continue;
      const r = el.getBoundingClientRect();
      const st = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || st.visibility === 'hidden' || st.display === 'none') continue;
      const size = parseFloat(st.fontSize);
      if (size < limit) out.push(`${el.tagName.toLowerCase()}.${(el.getAttribute('class') ?? '').split(' ')[0]} ${size}px "${(el.textContent ?? '').trim().slice(0, 30)}"`);
    }
    return out;
  }, min);
}

/**
 * The policy trees' value labels that overlap: pairs of labels whose ink boxes intersect (the
 * text's width as drawn, its height the glyphs' ascent and descent from the canvas's metrics in
 * the same font), a label over another node's circle, or a label outside its own tree.
 */
function crowdedTreeLabels(page: Page) {
  return page.getByTestId('classroom').evaluate((root) => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    const out: string[] = [];
    for (const svg of Array.from(root.querySelectorAll('.tree-svg'))) {
      const frame = svg.getBoundingClientRect();
      const tree = svg.closest('[data-testid="policy-tree"]')!.getAttribute('data-algorithm');
      const boxes = Array.from(svg.querySelectorAll<SVGTextElement>('.tree-label')).filter((t) => t.textContent).map((t) => {
        const st = getComputedStyle(t);
        ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
        const m = ctx.measureText(t.textContent!);
        const r = t.getBoundingClientRect();
        const base = frame.top + t.getStartPositionOfChar(0).y;
        const prefix = t.closest('[data-prefix]')!.getAttribute('data-prefix');
        return { what: `${tree} "${t.textContent}" at ${prefix || 'x'}`, prefix, x0: r.left, x1: r.right, y0: base - m.actualBoundingBoxAscent, y1: base + m.actualBoundingBoxDescent };
      });
      const circles = Array.from(svg.querySelectorAll('circle')).map((c) => ({ prefix: c.closest('[data-prefix]')!.getAttribute('data-prefix'), r: c.getBoundingClientRect() }));
      const hit = (a: { x0: number; x1: number; y0: number; y1: number }, b: { x0: number; x1: number; y0: number; y1: number }) => a.x0 < b.x1 - 0.5 && b.x0 < a.x1 - 0.5 && a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5;
      boxes.forEach((a, i) => {
        if (a.x0 < frame.left - 0.5 || a.x1 > frame.right + 0.5) out.push(`${a.what} outside its tree`);
        boxes.slice(i + 1).forEach((b) => {
          if (hit(a, b)) out.push(`${a.what} × ${b.what}`);
        });
        for (const c of circles) if (c.prefix !== a.prefix && hit(a, { x0: c.r.left, x1: c.r.right, y0: c.r.top, y1: c.r.bottom })) out.push(`${a.what} over the node ${c.prefix || 'x'}`);
      });
    }
    return out;
  });
}

/** The tour's "step n" tag over any control of the page (buttons, links, fields, selects). */
function tagOverControls(page: Page) {
  return page.evaluate(() => {
    const tag = document.querySelector('[data-testid="tour-tag"]');
    if (!tag) return ['no tag'];
    const t = tag.getBoundingClientRect();
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll('button, a[href], input, select, textarea, summary'))) {
      const r = el.getBoundingClientRect();
      if (r.width && r.height && t.left < r.right && r.left < t.right && t.top < r.bottom && r.top < t.bottom) out.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 20) || el.getAttribute('data-testid')}"`);
    }
    return out;
  });
}

for (const [w, h] of [[1366, 768], [1920, 1080]] as const) {
  test(`${w}×${h}: tree, return chart, lesson verdict and tour step on one screen${w === 1366 ? ', text ≥ 20 px' : ''}`, async ({ page }) => {
    const problems = watchProblems(page);
    await page.setViewportSize({ width: w, height: h });
    await page.goto(CLASSROOM);
    await expect(page.getByTestId('tour-step')).toBeVisible(); // the tour starts by itself
    // step 1 is about the per-turn probabilities: in the classroom its text describes the tree shown, not the heatmaps
    await expect(page.getByTestId('tour-step')).toHaveAttribute('data-stand-in', '1');
    await expect(page.getByTestId('tour-step')).toContainText('In the trees, edge width');
    await expect(page.getByTestId('tour-step')).not.toContainText(/heatmap/i);
    await expect(page.getByTestId('tour-tag')).toBeVisible();
    expect(await tagOverControls(page), 'the step 1 tag covers no control').toEqual([]);
    await page.getByTestId('step').click();
    const seeupo = page.locator('[data-testid="policy-tree"][data-algorithm="seeupo"]');
    await expect(seeupo).toHaveAttribute('data-iteration', '1');
    await expect(page.getByTestId('chart-return')).toHaveAttribute('data-upto', '1');
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(0);
    await onScreen(page, page.getByTestId('chart-tree'), 'the policy tree');
    for (const t of await page.getByTestId('policy-tree').all()) await onScreen(page, t, 'a tree');
    await onScreen(page, page.getByTestId('chart-return'), 'the return chart');
    await onScreen(page, page.getByTestId('verdict-claim-3'), 'the lesson’s verdict');
    await onScreen(page, page.getByTestId('tour-step'), 'the tour step');
    await onScreen(page, page.getByTestId('tour-next'), 'the tour’s Next');
    // the eight curves at the exit: one group label, inside the plot, every name in its title
    const group = page.getByTestId('chart-return').getByTestId('line-group');
    await expect(group).toHaveAttribute('data-count', '8');
    const drawn = await group.evaluate((t) => Array.from(t.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join(''));
    expect(drawn).toMatch(/^8 (algorithms )?at 0\.30/);
    await expect(group.locator('title')).toHaveText('8 identical curves at 0.30: SeeUPO (forward), SeeUPO (random), GRPO, GSPO, PPO+GRAE, PPO+GAE, REINFORCE, RLOO');
    const plot = (await page.getByTestId('chart-return').locator('svg.plot-svg').boundingBox())!;
    const label = (await group.boundingBox())!;
    expect(label.x, 'the group label starts inside the chart').toBeGreaterThanOrEqual(plot.x);
    expect(label.x + label.width, 'the group label ends inside the chart').toBeLessThanOrEqual(plot.x + plot.width);
    expect(await crowdedTreeLabels(page), 'tree labels apart').toEqual([]);
    expect(await tagOverControls(page), 'the tour tag covers no control').toEqual([]);
    await page.screenshot({ path: `docs/screenshots/classroom-${w}x${h}.png` });
    // nine lines: the legend is one line until opened (the end labels name the lines), and the plot
    // keeps the height it saves; opened, every entry shows and Next stays on screen
    const plotHeight = (await page.getByTestId('chart-return').locator('svg.plot-svg').boundingBox())!.height;
    if (w === 1366) expect(plotHeight, 'the return chart’s plot height at 1366×768').toBeGreaterThanOrEqual(150);
    const fold = page.getByTestId('chart-return').getByTestId('legend-fold');
    await expect(fold).toContainText('Legend: 9 algorithms');
    await expect(page.getByTestId('legend-grpo')).toBeHidden();
    await fold.locator('summary').click();
    await expect(page.getByTestId('legend-grpo')).toBeVisible();
    await onScreen(page, page.getByTestId('tour-next'), 'the tour’s Next, the legend open');
    await fold.locator('summary').click();
    if (w === 1366) {
      // the parts the issue names, then every text of the layout
      for (const sel of ['.plot text', '.chart-legend .legend-entry', '.verdict-reason', '.tree-svg text']) {
        const sizes = await page.getByTestId('classroom').locator(sel).evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize)));
        expect(sizes.length, `${sel} present`).toBeGreaterThan(0);
        expect(Math.min(...sizes), `${sel} font size`).toBeGreaterThanOrEqual(20);
      }
      expect(await smallText(page, 20)).toEqual([]);
    }
    expect(problems).toEqual([]);
  });
}

test('1366×768: Step one turn works in the classroom with the tree', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(CLASSROOM);
  const seeupo = page.locator('[data-testid="policy-tree"][data-algorithm="seeupo"]');
  await page.getByTestId('step-turn').click();
  await expect(seeupo).toHaveAttribute('data-turn-updated', '4');
  await expect(seeupo.locator('.tree-turn.now')).toHaveText(/5 ◀/);
  await page.getByTestId('step-turn').click();
  await expect(seeupo).toHaveAttribute('data-turn-updated', '3');
  await onScreen(page, page.getByTestId('chart-tree'), 'the policy tree');
  await page.screenshot({ path: 'docs/screenshots/classroom-turn-step-1366x768.png' });
});

test('390×844: the classroom stacks the tree, chart, verdicts and tour in one column', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(CLASSROOM);
  await page.getByTestId('step').click();
  await expect(page.locator('[data-testid="policy-tree"][data-algorithm="seeupo"]')).toHaveAttribute('data-iteration', '1');
  const xs = [];
  for (const id of ['chart-tree', 'chart-return', 'verdicts', 'tour']) {
    const box = (await page.getByTestId(id).boundingBox())!;
    expect(box.x + box.width, `${id} fits the width`).toBeLessThanOrEqual(391);
    xs.push(box.y);
  }
  expect([...xs].sort((a, b) => a - b)).toEqual(xs);
  expect(await crowdedTreeLabels(page), 'tree labels apart and inside their trees').toEqual([]);
  await page.screenshot({ path: 'docs/screenshots/classroom-390x844.png', fullPage: true });
});

test('1366×768: the tour never points at an empty chart, and its counter counts the presses it asks for', async ({ page }) => {
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/#v=1&lesson=reverse-order-turn-by-turn&classroom=1');
  const step = page.getByTestId('tour-step');
  await expect(step).toHaveAttribute('data-step', '1');
  // step 1 is about the per-turn probabilities: the classroom points at the tree, drawn at iteration 0
  await expect(page.locator('[data-tour-target]')).toHaveAttribute('data-testid', 'chart-tree');
  await expect(page.locator('[data-testid="policy-tree"]').first()).toHaveAttribute('data-iteration', '0');
  await expect(page.getByTestId('chart-return')).toHaveAttribute('data-upto', '0');
  const next = page.getByTestId('tour-next');
  const press = page.getByTestId('step-turn');
  await next.click();
  await press.click();
  await expect(next).toBeEnabled();
  await next.click();
  await press.click();
  await expect(next).toBeEnabled();
  await next.click();
  await expect(step).toHaveAttribute('data-step', '4');
  const action = page.getByTestId('tour-action');
  await expect(action).toHaveAttribute('data-left', '3');
  await expect(action).toContainText('3 more presses');
  for (const left of [2, 1]) {
    await press.click();
    await expect(action).toHaveAttribute('data-left', String(left));
    await expect(next).toBeDisabled();
  }
  await press.click();
  await expect(next).toBeEnabled();
  await expect(page.locator('[data-testid="policy-tree"][data-algorithm="seeupo"]')).toHaveAttribute('data-turn-updated', '0');
  // the tag beside Step one turn covers no control (the transport's buttons sit either side of it)
  await expect(page.getByTestId('tour-pointer')).toHaveAttribute('data-target', 'step-turn');
  await expect.poll(() => tagOverControls(page)).toEqual([]);
  await page.screenshot({ path: 'docs/screenshots/classroom-tour-counter-1366x768.png' });
  expect(problems).toEqual([]);
});
