import { expect, test, type Locator, type Page } from '@playwright/test';
import { drawn, openSettings, watchProblems, RUN_TIMEOUT } from './helpers';
import { lessonById } from '../src/core/lessons/lessons';
import { resolveConfig } from '../src/core/config/resolve';

// The claims lab: the Claims view's five cards and their lessons, a lesson run to its
// end giving the verdict it declares, lessons by permalink, a guided tour walked from start to
// end (pressing the actions it asks for), the verdict panel's highlighting, and the classroom
// layout. Lessons are read from the page (the list grows); preferred ones are used when present.

test.use({ viewport: { width: 1366, height: 768 } });

/** The first of `preferred` lesson ids the Claims view offers, else the first lesson button matching `fallback`. */
async function pickLesson(page: Page, preferred: string[], fallback = '[data-testid^="lesson-"]'): Promise<Locator> {
  for (const id of preferred) {
    const b = page.getByTestId(`lesson-${id}`);
    if (await b.count()) return b;
  }
  return page.locator(`.claim-cards ${fallback}`).first();
}

async function openClaims(page: Page): Promise<void> {
  await page.getByTestId('tab-claims').click();
  await expect(page.getByTestId('claims-view')).toBeVisible();
}

async function waitDone(page: Page, timeout = 90_000): Promise<void> {
  const progress = page.getByTestId('progress');
  await expect(progress).toHaveAttribute('data-status', /^(done|error)$/, { timeout });
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await expect(progress).toHaveAttribute('data-status', 'done');
  await drawn(page);
}

test('the Claims view: five cards, each with its texts, live verdict and lessons', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await openClaims(page);
  for (let n = 1; n <= 5; n++) {
    const card = page.getByTestId(`claim-card-${n}`);
    await expect(card).toBeVisible();
    await expect(card).toContainText('The paper says');
    await expect(card).toContainText('Under which condition');
    await expect(card.getByTestId(`claim-card-verdict-${n}`)).toHaveAttribute('data-verdict', /^(observed|not-observed|undecided|not-testable)$/);
    for (const b of await card.locator('[data-testid^="lesson-"]').all()) {
      await expect(b).toHaveAttribute('data-claim', String(n));
      await expect(b).toHaveAttribute('data-expect', /^(observed|not-observed|undecided|not-testable)$/);
    }
  }
  await page.screenshot({ path: 'test-results/claims-view.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/claims-view-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByTestId('tab-explorer').click();
  await expect(page.getByTestId('chart-return')).toBeVisible();
  expect(problems).toEqual([]);
});

test('a lesson clicked in the Claims view loads, runs, and gives the verdict it declares', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await openClaims(page);
  const button = await pickLesson(page, ['reverse-escapes-the-exit', 'short-lock-everyone-gets-there', 'reverse-order-turn-by-turn']);
  const id = (await button.getAttribute('data-testid'))!.replace(/^lesson-/, '');
  const claim = (await button.getAttribute('data-claim'))!;
  const expected = (await button.getAttribute('data-expect'))!;
  await button.click();
  // the explorer, with the lesson's banner, title and text, and the address naming the lesson
  await expect(page.getByTestId('claims-view')).toHaveCount(0);
  const banner = page.getByTestId('lesson-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toHaveAttribute('data-lesson', id);
  await expect(page.getByTestId('lesson-title')).not.toBeEmpty();
  await expect(page.getByTestId('lesson-text')).not.toBeEmpty();
  await expect(page).toHaveURL(new RegExp(`#v=1&lesson=${id}$`));
  if (await page.getByTestId('tour').count()) await page.getByTestId('tour-close').click();
  await page.getByTestId('run').click();
  await waitDone(page);
  const verdict = page.getByTestId(`verdict-claim-${claim}`);
  await expect(verdict).toHaveAttribute('data-verdict', expected);
  await expect(page.getByTestId('lesson-outcome')).toHaveAttribute('data-verdict', expected);
  for (let n = 1; n <= 5; n++) await expect(page.getByTestId(`verdict-claim-${n}`)).toHaveAttribute('data-verdict', /^(observed|not-observed|undecided|not-testable)$/);

  // selecting the verdict shows its evidence and dims, in the charts, the algorithms it was not decided on
  await page.getByTestId(`verdict-select-${claim}`).click();
  await expect(page.getByTestId(`evidence-${claim}`)).toBeVisible();
  await expect(page.getByTestId('highlight-style')).toHaveCount(1);
  const ids = await page.getByTestId(`evidence-${claim}`).locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')!));
  await page.getByTestId('chart-return').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/claims-verdict-selected.png' });
  const lines = page.getByTestId('chart-return').locator('.plot-line');
  for (const line of await lines.all()) {
    const algo = (await line.getAttribute('data-algorithm'))!;
    const opacity = Number(await line.evaluate((el) => getComputedStyle(el).opacity));
    if (ids.includes(algo)) expect(opacity, algo).toBe(1);
    else expect(opacity, algo).toBeLessThan(0.5);
  }
  // keyboard: ↓ moves to the next verdict, Enter selects it, Escape unselects
  await page.getByTestId(`verdict-select-${claim}`).focus();
  const next = Number(claim) === 5 ? 4 : Number(claim) + 1;
  await page.keyboard.press(Number(claim) === 5 ? 'ArrowUp' : 'ArrowDown');
  await expect(page.getByTestId(`verdict-select-${next}`)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId(`verdict-select-${next}`)).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId(`verdict-select-${next}`)).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('highlight-style')).toHaveCount(0);

  // an edit turns the lesson's address into an ordinary config link, and the banner says "edited"
  // (a lesson opens with the settings drawer closed: open it first)
  await expect(page.getByTestId('settings-toggle')).toHaveAttribute('aria-expanded', 'false');
  await openSettings(page);
  await page.getByTestId('field-iterations').fill('12');
  await page.getByTestId('field-iterations').blur();
  await expect(page.getByTestId('lesson-edited')).toBeVisible();
  await expect(page).not.toHaveURL(/lesson=/);
  await expect(page).toHaveURL(/iterations=12/);
  await page.getByTestId('lesson-reload').click();
  await expect(page.getByTestId('lesson-edited')).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`#v=1&lesson=${id}$`));
  expect(problems).toEqual([]);
});

test('lessons by permalink: a known id opens it, an unknown one is refused naming lesson', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await openClaims(page);
  const button = await pickLesson(page, ['short-lock-order-does-not-matter', 'reverse-order-turn-by-turn']);
  const id = (await button.getAttribute('data-testid'))!.replace(/^lesson-/, '');
  const title = (await button.locator('.lesson-button-title').textContent())!;

  await page.goto(`/#v=1&lesson=${id}`);
  await page.reload();
  await expect(page.getByTestId('lesson-banner')).toHaveAttribute('data-lesson', id);
  await expect(page.getByTestId('lesson-title')).toHaveText(title);
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await expect(page.getByTestId('lesson-tour-start')).toBeVisible();

  await page.goto('/#v=1&lesson=no-such-lesson');
  await page.reload();
  const error = page.getByTestId('link-error');
  await expect(error).toContainText('lesson: no lesson "no-such-lesson"');
  await expect(error).toContainText(id.length ? 'The lessons are' : '');
  await expect(page.getByTestId('lesson-banner')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('a guided tour, walked from start to end, pressing the actions it asks for', async ({ page }) => {
  const problems = watchProblems(page);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/#v=1');
  await openClaims(page);
  const button = await pickLesson(page, ['reverse-order-turn-by-turn', 'reverse-escapes-the-exit']);
  await button.click();
  const tour = page.getByTestId('tour');
  await expect(tour).toBeVisible();
  const step = page.getByTestId('tour-step');
  const steps = Number(await step.getAttribute('data-steps'));
  expect(steps).toBeGreaterThan(0);
  let shot = false;
  for (let k = 1; k <= steps; k++) {
    await expect(step).toHaveAttribute('data-step', String(k));
    const next = page.getByTestId('tour-next');
    const action = page.getByTestId('tour-action');
    if (await action.count()) {
      const what = (await action.getAttribute('data-action'))!;
      if ((await action.getAttribute('data-done')) !== 'true') {
        await expect(next).toBeDisabled();
        await expect(page.getByTestId(what)).toHaveAttribute('data-tour-target', '');
        // a step that asks for several presses ("three more times") counts them down
        const presses = Number((await action.getAttribute('data-left')) ?? 1);
        for (let left = presses - 1; left > 0; left--) {
          await page.getByTestId(what).click();
          await expect(action).toHaveAttribute('data-left', String(left));
          await expect(next).toBeDisabled();
        }
        await page.getByTestId(what).click();
        if (what === 'run') await waitDone(page);
        // a step may ask for several presses ("three more times"): the action counts them down (data-left)
        for (let left = Number((await action.getAttribute('data-left')) ?? 0); left > 0; ) {
          await expect(action).toHaveAttribute('data-left', String(left));
          await page.getByTestId(what).click();
          await expect(action).not.toHaveAttribute('data-left', String(left));
          left = Number((await action.getAttribute('data-left')) ?? 0);
        }
        await expect(next).toBeEnabled({ timeout: RUN_TIMEOUT });
        await expect(page.getByTestId('tour-note')).toContainText(what === 'run' ? 'The run ended' : what === 'step' ? 'Iteration' : 'Turn step');
        if (what === 'step-turn') await expect(page.getByTestId('tour-note')).toContainText(/turn \d was updated (first|second|third|fourth|fifth|last)/);
        if (!shot) {
          // the charts have caught up with the run (the return chart draws up to the progress)
          const done = await page.getByTestId('progress').getAttribute('aria-valuenow');
          await expect(page.getByTestId('chart-return')).toHaveAttribute('data-upto', done!);
          await page.screenshot({ path: 'test-results/claims-lesson-mid-tour.png' });
          shot = true;
        }
      }
    }
    await expect(next).toBeEnabled();
    if (k > 1 && k === 2) {
      // Back and Next with the keyboard while the tour has focus (← / →), and N / B anywhere
      await tour.focus();
      await page.keyboard.press('ArrowLeft');
      await expect(step).toHaveAttribute('data-step', '1');
      await page.keyboard.press('n');
      await expect(step).toHaveAttribute('data-step', '2');
    }
    await expect(next).toHaveText(k === steps ? 'Finish' : 'Next →');
    await next.click();
  }
  await expect(tour).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('the classroom layout: large type, transport, return chart and verdicts; hide=… hides controls', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await openClaims(page);
  const button = await pickLesson(page, ['reverse-escapes-the-exit', 'short-lock-order-does-not-matter']);
  const id = (await button.getAttribute('data-testid'))!.replace(/^lesson-/, '');
  await page.goto(`/#v=1&lesson=${id}&classroom=1&hide=step-turn,speed`);
  await page.reload();
  const root = page.getByTestId('classroom');
  await expect(root).toBeVisible();
  await expect(page.locator('.sidebar')).toHaveCount(0);
  await expect(page.getByTestId('chart-return')).toBeVisible();
  await expect(page.getByTestId('verdicts')).toBeVisible();
  await expect(page.getByTestId('step-turn')).toHaveCount(0);
  await expect(page.getByTestId('speed')).toHaveCount(0);
  await expect(page.getByTestId('step')).toBeVisible();
  expect(Number(await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize)))).toBeGreaterThanOrEqual(19);
  await page.getByTestId('run').click();
  await waitDone(page);
  await page.screenshot({ path: 'test-results/claims-classroom.png' });
  // the full explorer's link drops classroom and hide
  await expect(page.getByTestId('open-full')).toHaveAttribute('href', new RegExp(`#v=1&lesson=${id}$`));

  // hide=… in the ordinary explorer: the named controls are gone, the others stay
  await page.goto('/#v=1&iterations=20&hide=seeds,optimizer.lr,chart-heatmap');
  await page.reload();
  await openSettings(page); // a link opens with the drawer closed: open it, or the hidden fields' absence proves nothing
  await expect(page.getByTestId('field-iterations')).toBeVisible();
  await expect(page.getByTestId('field-seeds')).toHaveCount(0);
  await expect(page.getByTestId('field-optimizer.lr')).toHaveCount(0);
  await expect(page.getByTestId('chart-return')).toBeVisible();
  await expect(page.getByTestId('chart-seeds')).toBeVisible();
  await expect(page.getByTestId('chart-heatmap')).toHaveCount(0);
  expect(problems).toEqual([]);
});

const TURN_WORDS = ['', 'one', 'two', 'three', 'four', 'five', 'six'];
const OPENING = 'reverse-escapes-the-exit';

// (the opening lesson's run also checks that its eight identical curves at the exit are labelled as one group)
test('every lesson, opened by its link and run, shows the verdict it declares, its own claim first; the opening lesson groups its eight identical curves', async ({ page }) => {
  test.setTimeout(600_000);
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await openClaims(page);
  const lessons = await page.locator('.claim-cards [data-testid^="lesson-"][data-claim]').evaluateAll((bs) =>
    bs.map((b) => ({ id: b.getAttribute('data-testid')!.replace(/^lesson-/, ''), claim: b.getAttribute('data-claim')!, expect: b.getAttribute('data-expect')!, part: b.getAttribute('data-part') })),
  );
  expect(lessons.length).toBeGreaterThanOrEqual(10);
  for (const l of lessons) {
    await page.goto(`/#v=1&lesson=${l.id}`);
    await page.reload();
    await expect(page.getByTestId('lesson-banner'), l.id).toHaveAttribute('data-lesson', l.id);
    // the drawer starts closed; the description is the loaded environment's, with its own number of turns
    await expect(page.getByTestId('settings-toggle'), l.id).toHaveAttribute('aria-expanded', 'false');
    const turns = resolveConfig(lessonById(l.id)!.config).env.turns;
    const env = (await page.getByTestId('lesson-env').textContent())!.toLowerCase();
    expect(env, l.id).toContain(`${TURN_WORDS[turns]} turns`);
    // no verdict before data: only what the lesson declares
    await expect(page.getByTestId('lesson-verdict-wait'), l.id).toBeVisible();
    await expect(page.locator('[data-testid^="verdict-claim-"]'), l.id).toHaveCount(0);
    if (await page.getByTestId('tour').count()) await page.getByTestId('tour-close').click();
    await page.getByTestId('run').click();
    await waitDone(page, 180_000);
    await expect(page.getByTestId('lesson-outcome'), l.id).toHaveAttribute('data-verdict', l.expect);
    // the lesson's own claim first; the others folded, each saying whether this run can test it
    const rows = page.locator('.verdict-list [data-testid^="verdict-claim-"]');
    await expect(rows.first(), l.id).toHaveAttribute('data-testid', `verdict-claim-${l.claim}`);
    if (!l.part) await expect(page.getByTestId(`verdict-claim-${l.claim}`), l.id).toHaveAttribute('data-verdict', l.expect);
    else await expect(page.getByTestId('lesson-part-verdict'), l.id).toHaveAttribute('data-verdict', l.expect);
    const others = page.getByTestId('other-claims');
    await expect(others, l.id).not.toHaveAttribute('open', '');
    await others.locator('summary').click();
    for (let n = 1; n <= 5; n++) {
      if (String(n) === l.claim) continue;
      const note = page.getByTestId(`other-claim-note-${n}`);
      await expect(note, `${l.id} claim ${n}`).toBeVisible();
      const testable = (await page.getByTestId(`verdict-claim-${n}`).getAttribute('data-verdict')) !== 'not-testable';
      await expect(note, `${l.id} claim ${n}`).toHaveAttribute('data-testable', String(testable));
    }
    // captions never show a raw algorithm id
    const legend = await page.getByTestId('chart-return').locator('.chart-legend').textContent();
    expect(legend ?? '', l.id).not.toMatch(/\b[a-z]+(-[a-z]+)+\b/);
    if (l.id === OPENING) await eightCurvesAsOneGroup(page);
  }
  expect(lessons.map((l) => l.id)).toContain(OPENING);
  expect(problems).toEqual([]);
});

/** The opening lesson, run: its eight identical curves at the exit are labelled as one group. */
async function eightCurvesAsOneGroup(page: Page): Promise<void> {
  const group = page.getByTestId('chart-return').getByTestId('line-group');
  await expect(group).toHaveCount(1);
  await expect(group).toHaveAttribute('data-count', '8');
  await expect(group).toContainText('8 algorithms at 0.30: ');
  await expect(group).not.toContainText('grpo');
  await page.screenshot({ path: 'test-results/claims-lesson-grouped.png' });
}

test('a narrow-band lesson says so and links the sweep that shows the band', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1&lesson=ordinary-steps-the-exit-only-delays');
  await page.reload();
  await expect(page.getByTestId('lesson-title')).toContainText('narrow band');
  await expect(page.getByTestId('lesson-band')).toBeVisible();
  await page.getByTestId('lesson-sweep').click();
  await expect(page.getByTestId('sweep-view')).toBeVisible();
  await expect(page.getByTestId('sweep-axis-0-pick')).toHaveValue('optimizer.lr');
  await expect(page.getByTestId('sweep-axis-0-values')).toHaveValue(/0\.5, ?0\.8, ?1, ?1\.5, ?2, ?3/);
  expect(problems).toEqual([]);
});
