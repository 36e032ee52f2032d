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

// Rules version 2 on links where it matters: claim 5 on a table shared by two prompts (group
// stays put, batch and none reach J*), and claims 2–5 judged on J_γ at γ = 0.5 with per-turn rewards.
const V2_LINKS = [
  '/#v=1&mode=exact&iterations=500&seeds=1&env.turns=1&env.vocab=2&env.tokensPerTurn=1&env.contexts=2&env.rewards.0=[1,0]&env.rewards.1=[0,0.5]&policy.kind=tabular&policy.shareContexts=true&optimizer.kind=sgd&optimizer.lr=10&algorithms=[grpo,gb,gn,seeupo]&algorithms.0.epochs=1&algorithms.1.preset=grpo&algorithms.1.normalization=batch&algorithms.1.epochs=1&algorithms.2.preset=grpo&algorithms.2.normalization=none&algorithms.2.epochs=1',
  '/#v=1&mode=exact&iterations=60&seeds=1&env.turns=2&env.vocab=2&env.tokensPerTurn=1&env.rewards.0=[1,0,0,0]&env.turnRewards.0=[[0,0.6]]&env.gamma=0.5&optimizer.kind=sgd&optimizer.lr=1&algorithms=[ppo-grae,seeupo,seeupo-forward]',
];

test('rules v2: the page and the CLI agree on every claim and on 4c (shared table, J_γ)', async ({ page }) => {
  const problems = watchProblems(page);
  for (const [i, link] of V2_LINKS.entries()) {
    const out = execFileSync('node', ['bin/seeupo-explorer.js', 'claims', '--link', `http://localhost${link}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const cli = JSON.parse(out) as { claimsRules: number; claims: { claim: number; verdict: string; parts?: { part: string; verdict: string }[] }[] };
    expect(cli.claimsRules).toBe(2);
    if (i === 0) expect(cli.claims[4].verdict).toBe('observed'); // the shared table: group normalization moves the end point
    if (i === 1) expect(cli.claims[1].verdict).toBe('not observed'); // J falls, J_γ does not
    await page.goto('about:blank');
    await page.goto(link);
    // before the first iteration: no verdict but undecided or not testable, 4c included
    for (const id of ['1', '2', '3', '4', '4c', '5'])
      await expect(page.getByTestId(`verdict-claim-${id}`), `before a run, claim ${id}`).toHaveAttribute('data-verdict', /^(undecided|not-testable)$/);
    await runToEnd(page, i === 0 ? 500 : 60);
    for (let n = 1; n <= 5; n++) {
      const want = cli.claims.find((c) => c.claim === n)!.verdict;
      await expect(page.getByTestId(`verdict-claim-${n}`), `link ${i}, claim ${n}`).toHaveAttribute('data-verdict', want.replace(/ /g, '-'));
    }
    const c4c = cli.claims[3].parts!.find((p) => p.part === 'c')!.verdict;
    await expect(page.getByTestId('verdict-claim-4c'), `link ${i}, 4c`).toHaveAttribute('data-verdict', c4c.replace(/ /g, '-'));
  }
  expect(problems).toEqual([]);
});
