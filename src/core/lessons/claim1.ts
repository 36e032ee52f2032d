import type { Lesson } from './types';
import { standardVariants } from './variants';

// Claim 1: GRAE-REINFORCE reaches J* when undiscounted. Numbers measured with the CLI (exact mode,
// CPU executor); times on the 2-core dev machine, `claims X.json --threads 2`. Every lesson is run
// under its holdsUnder by test/integration/lessons-variants.test.ts.

/** T = 2, V = 2: a first token 0 pays 0.5 at once and nothing after; the sequence 1-0 pays 0.8 at the end (J* = 0.8). */
const lure = (gamma: number) => ({
  turns: 2,
  vocab: 2,
  tokensPerTurn: 1,
  rewards: [[0, 0, 0.8, 0]],
  turnRewards: [[[0.5, 0]]],
  gamma,
});

export const CLAIM1: Lesson[] = [
  // 0.1 s. lr ×0.5, ×2, seeds 7 and 11, initScale 0.3 → observed (final J 0.796–0.799).
  {
    id: 'undiscounted-reinforce-passes-the-lure',
    claim: 1,
    expect: 'observed',
    title: 'Undiscounted REINFORCE passes up an early reward for a larger late one',
    text:
      'A first token 0 pays 0.5 at once and nothing after; a first token 1 pays nothing at once but leads to 1-0, worth 0.8 at the end, so J* = 0.8. ' +
      'With γ = 1 turn 1 is fed its whole reward-to-go, so exact REINFORCE, which is gradient ascent on J itself, moves turn 1 to token 1: J climbs from 0.45 to 0.786 by iteration 30 and ends at 0.798. ' +
      'Why it shows the claim: an unbiased gradient of J has no local optimum to stop at here, and RLOO, whose exact-mode baseline is the same as GRAE\'s, draws the same curve.',
    config: {
      version: 1,
      env: lure(1),
      mode: 'exact',
      iterations: 200,
      seeds: 1,
      optimizer: { kind: 'sgd', lr: 3 },
      algorithms: [{ id: 'reinforce' }, { id: 'rloo' }],
    },
    look: 'chart-return',
    tour: [
      { text: 'Run it: two turns, an early 0.5 on one branch and a late 0.8 on the other.', target: 'run', action: 'run' },
      { text: 'J passes 0.5 (what the early reward alone would give) and settles at J* = 0.8 (dashed).', target: 'chart-return' },
      {
        text: 'Turn 1\'s row of the heatmap: the probability of token 1, the way to 0.8, goes to 1.',
        standIn: 'The policy trees: turn 1\'s edge to token 1, the way to 0.8, is now the thick one (its probability near 1), and the node at its end is worth about 0.8.',
        target: 'chart-heatmap',
      },
    ],
    holdsUnder: standardVariants(true),
  },
  // 0.1 s. Not testable under every variant: the verdict depends on γ alone.
  {
    id: 'discounted-reinforce-takes-the-lure',
    claim: 1,
    expect: 'not testable',
    title: 'Discounted, REINFORCE settles on the early reward: not testable',
    text:
      'The same table with γ = 0.5: turn 1 now weighs the late 0.8 at 0.5 · 0.8 = 0.4, less than the 0.5 paid at once, so REINFORCE learns the early reward and ends at J = 0.502, not J* = 0.8. ' +
      'That is no failure of the learner: it maximizes the discounted return it is fed, and the sequence it settles on is the best one for that return. ' +
      'The claim is about undiscounted training, so the check says not testable here and only reports the share at J*.',
    config: {
      version: 1,
      env: lure(0.5),
      mode: 'exact',
      iterations: 200,
      seeds: 1,
      optimizer: { kind: 'sgd', lr: 3 },
      algorithms: [{ id: 'reinforce' }, { id: 'rloo' }],
    },
    look: 'chart-return',
    tour: [
      { text: 'Run it: the same two turns, discounted by γ = 0.5.', target: 'run', action: 'run' },
      { text: 'J peaks at 0.53 and slides back to 0.50: the early reward wins, as the discounted return says it should.', target: 'chart-return' },
    ],
    holdsUnder: standardVariants(true),
  },
  // 0.3 s. lr ×0.5, ×2, seeds 7 and 11, initScale 0.3 → not observed (0.30, both). Also at 0.30 at lr 1,
  // 20 and 50 over 3000 iterations.
  {
    id: 'reinforce-stalls-at-the-exit',
    claim: 1,
    expect: 'not observed',
    title: 'Exact REINFORCE does not reach J* in 600 iterations on a 5-turn lock',
    text:
      'On the 5-turn lock the code 0-1-0-1-0 pays 1 and a first token 2 pays 0.3 at once; from a uniform start the code is 1 sequence in 243, so the true gradient of J points to the exit. ' +
      'REINFORCE follows it: J is 0.297 by iteration 50 and the first turn\'s code token falls to 4·10⁻⁴ by iteration 600, so the later turns, which drift toward the code, are reached ever more rarely and their pull on turn 1 fades. ' +
      'The claim is about the limit, so a finite run can only fail to show it: J* is not reached in 600 iterations (nor in 3000), which is why the verdict is "not observed", never a refutation: gradient ascent can take unboundedly long when the optimum is this hard to find.',
    config: {
      version: 1,
      env: { preset: 'lock', turns: 5 },
      mode: 'exact',
      iterations: 600,
      seeds: 1,
      optimizer: { kind: 'sgd', lr: 5 },
      algorithms: [{ id: 'reinforce' }, { id: 'rloo' }],
    },
    look: 'chart-heatmap',
    tour: [
      { text: 'Run it: REINFORCE and RLOO with exact gradients on the 5-turn lock.', target: 'run', action: 'run' },
      { text: 'J rises fast to just under 0.3 — the exit — and stays there, far from J* = 1.', target: 'chart-return' },
      {
        text: 'Turn 1\'s code token is dark (4·10⁻⁴); the later turns barely move off 1/3.',
        standIn: 'The policy trees: turn 1\'s thick edge goes to the exit (.300); the green path of the code starts with an edge of probability 4·10⁻⁴ (hover its node), and its later edges are barely thicker than at the start.',
        target: 'chart-heatmap',
      },
    ],
    holdsUnder: standardVariants(true),
  },
];
