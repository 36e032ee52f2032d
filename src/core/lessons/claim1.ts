import type { Lesson } from './types';

// Claim 1: GRAE-REINFORCE reaches J* when undiscounted. Numbers measured with the CLI (exact mode,
// CPU executor); times on the 2-core dev machine, `claims X.json --threads 2`.

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
  // 0.5 s. robust: lr 2.1, 4.2 → observed; seed 1 → observed (zero init: the same curve);
  // iterations 150, 250 → observed (0.7977 at 150: J gets within 0.01 of J* at iteration 41); a
  // random start (initScale 0.3, 4 seeds) → observed.
  {
    id: 'undiscounted-reinforce-passes-the-lure',
    claim: 1,
    expect: 'observed',
    title: 'Undiscounted REINFORCE passes up an early reward for a larger late one',
    text:
      'A first token 0 pays 0.5 at once and nothing after; a first token 1 pays nothing at once but leads to 1-0, worth 0.8 at the end, so J* = 0.8. ' +
      'With γ = 1 turn 1 is fed its whole reward-to-go, so exact REINFORCE, which is gradient ascent on J itself, moves turn 1 to token 1: J climbs from 0.45 to 0.786 by iteration 30, is within 0.01 of J* from iteration 41 on, and ends at 0.798. ' +
      'RLOO draws the same curve: in exact mode its baseline is the same as GRAE\'s.',
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
      { text: 'Turn 1\'s row of the heatmap: the probability of token 1, the way to 0.8, goes to 1.', target: 'chart-heatmap' },
    ],
  },
  // 0.5 s. robust: lr 2.1, 4.2 → not testable; seed 1 → not testable; iterations 150, 250 → not
  // testable (the verdict depends on γ alone; the curve also keeps its shape: J peaks near 0.53 and
  // falls back toward 0.50 in every variant).
  {
    id: 'discounted-reinforce-takes-the-lure',
    claim: 1,
    expect: 'not testable',
    title: 'Discounted, REINFORCE settles on the early reward',
    text:
      'The same table with γ = 0.5: turn 1 now weighs the late 0.8 at 0.5 · 0.8 = 0.4, less than the 0.5 paid at once, so REINFORCE learns the early reward and ends at J = 0.502, not J* = 0.8. ' +
      'J first rises to 0.534 (iteration 4) while turn 2 learns, then falls back as turn 1 commits to token 0: J is measured undiscounted, so each of those 196 small falls is marked ▲, although the learner is doing its job on the discounted return it is fed. ' +
      'The claim is about undiscounted training, so the check says not testable here and only reports the share at J* (0 of 1 seed).',
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
      { text: 'J peaks at 0.53 and slides back to 0.50: the early reward wins. The ▲ marks are J falling while the discounted objective rises.', target: 'chart-return' },
    ],
  },
  // 0.7 s. robust: lr 3.5, 7 → not observed; seed 1 → not observed (zero init: the same curve);
  // iterations 450, 750 → not observed; a random start (initScale 0.3, 4 seeds) → not observed
  // (4/4 stuck). Also stuck at lr 1, 20 and 50 over 3000 iterations.
  {
    id: 'reinforce-stalls-at-the-exit',
    claim: 1,
    expect: 'not observed',
    title: 'Exact REINFORCE stalls at the safe exit of a 5-turn lock',
    text:
      'On the 5-turn lock the code 0-1-0-1-0 pays 1 and a first token 2 pays 0.3 at once; from a uniform start the code is 1 sequence in 243, so the true gradient of J points to the exit. ' +
      'REINFORCE follows it: J is 0.297 by iteration 50, the first turn\'s code token falls to 4·10⁻⁴ by iteration 600, and turns 2–5, which do drift toward the code (0.33 → 0.37), are reached ever more rarely, so their pull on turn 1 fades. ' +
      'J moves by less than 1e-4 over the last 60 iterations while 0.70 below J*: stuck, so claim 1 is not observed — gradient ascent on J is not enough when the optimum is this hard to find.',
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
      { text: 'Turn 1\'s code token is dark (4·10⁻⁴); the later turns barely move off 1/3.', target: 'chart-heatmap' },
    ],
  },
];
