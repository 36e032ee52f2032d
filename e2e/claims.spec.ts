import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { runToEnd, watchProblems } from './helpers';

// The page's claim verdicts come from the same module as the CLI's (src/core/claims): the same
// experiment, opened by link and run to the end, shows the verdicts `seeupo-explorer claims` prints.

const LINK =
  '/#v=1&mode=exact&iterations=100&seeds=1&env.preset=lock&env.turns=5&optimizer.kind=sgd&optimizer.lr=20&algorithms=[seeupo,seeupo-forward,grpo,reinforce]';

test('claim verdicts on the page equal the CLI claims for the same link', async ({ page }) => {
  const problems = watchProblems(page);
  const out = execFileSync('node', ['bin/seeupo-explorer.js', 'claims', '--link', `http://localhost${LINK}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const cli = JSON.parse(out) as { claimsRules: number; claims: { claim: number; verdict: string; parts?: { part: string; verdict: string }[] }[] };
  expect(cli.claimsRules).toBe(2);
  // on the 5-turn lock at lr 20, GRPO stays at the 0.3 exit while reverse-order SeeUPO reaches J*
  expect(cli.claims.find((c) => c.claim === 3)!.verdict).toBe('observed');

  await page.goto(LINK);
  await runToEnd(page, 100);
  // the verdict panel beside the return chart: all five, each with its reason (claim-N)
  for (let n = 1; n <= 5; n++) {
    const want = cli.claims.find((c) => c.claim === n)!.verdict;
    await expect(page.getByTestId(`verdict-claim-${n}`), `claim ${n}`).toHaveAttribute('data-verdict', want.replace(/ /g, '-'));
    await expect(page.getByTestId(`claim-${n}`), `claim ${n}`).toHaveAttribute('data-verdict', want);
  }
  // claim 4's part (c), the order effect, has its own verdict beside claim 4's row
  const c4c = cli.claims.find((c) => c.claim === 4)!.parts!.find((p) => p.part === 'c')!.verdict;
  await expect(page.getByTestId('verdict-claim-4c')).toHaveAttribute('data-verdict', c4c.replace(/ /g, '-'));
  await expect(page.getByTestId('verdict-claim-3')).toContainText('observed');
  await expect(page.getByTestId('caption')).not.toContainText('stalled at');
  await page.getByTestId('verdicts').screenshot({ path: 'test-results/claims-caption.png' });
  expect(problems).toEqual([]);
});
