import { expect, test } from '@playwright/test';
import { LESSONS } from '../src/core/lessons/lessons';
import { resolveConfig } from '../src/core/config/resolve';
import { estimateWorkMs } from '../src/exec/cpu/work';
import { drawn, watchProblems, RUN_TIMEOUT } from './helpers';
import { describeTasks, overCpu, watchMainThread } from './main-thread';

// "No main-thread task over 50 ms during a run", on the lesson that asks the most of the page: the
// most runs and work (estimateWorkMs), whose end brings the verdicts and charts of every run at once.
// Measured as the sweep page's check is: each task's CPU time (e2e/main-thread.ts says why).
//
// The waits read attributes of elements that are already on the page (the progress bar): a
// Playwright assertion on a missing element takes an accessibility snapshot of the whole page on
// its main thread at every failed poll (tens of ms each here), tasks the test itself would plant.

const heaviest = [...LESSONS].sort((a, b) => estimateWorkMs(resolveConfig(b.config)) - estimateWorkMs(resolveConfig(a.config)))[0];

test.use({ viewport: { width: 1366, height: 768 } });

test(`the heaviest lesson (${heaviest.id}) runs to its verdict with no main-thread task over 50 ms of CPU`, async ({ page }) => {
  test.setTimeout(RUN_TIMEOUT + 60_000);
  const problems = watchProblems(page);
  await page.goto(`/#v=1&lesson=${heaviest.id}`);
  await expect(page.getByTestId('lesson-banner')).toHaveAttribute('data-lesson', heaviest.id);
  await expect(page.getByTestId('run')).toBeEnabled();
  const progress = page.getByTestId('progress');
  const watch = await watchMainThread(page);
  await page.getByTestId('run').click();
  await expect(progress).toHaveAttribute('data-status', /^(done|error)$/, { timeout: RUN_TIMEOUT });
  await expect(progress).toHaveAttribute('data-status', 'done');
  await drawn(page);
  const tasks = await watch.stop();
  console.log(`${heaviest.id}, Run to its verdict: ${describeTasks(tasks)}`);
  await expect(page.getByTestId('lesson-outcome')).toHaveAttribute('data-verdict', heaviest.expect);
  expect(overCpu(tasks)).toEqual([]);
  expect(problems).toEqual([]);
});
