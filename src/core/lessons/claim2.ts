import type { Lesson } from './types';

// Claim 2: PPO with GRAE can decrease J. Numbers measured with the CLI (CPU executor); times on
// the 2-core dev machine, `claims X.json --threads 2`.
//
// In exact mode with a table, drops are rare: per decision node the clipped surrogate is a lower
// bound of the improvement (min(ρA, clip(ρ)A) ≤ ρA), so J can only fall when the optimizer's own
// steps overshoot that surrogate — which takes very large steps. A random search over small
// tables, lr up to 1000 and up to 64 epochs never found more than ~5% of seeds with a drop.

export const CLAIM2: Lesson[] = [
  // 3.4 s. robust: lr 70 → observed (PPO+GRAE 4/128, GRPO 6/128), lr 140 → observed (1/128,
  // 5/128); seed 1 → observed (1/128, 5/128); iterations 22, 38 → observed (2/128, 5/128). With 64
  // seeds and PPO+GRAE alone it was fragile (seed 1: no drop), hence 128 seeds and GRPO beside it.
  // With 256 seeds SeeUPO itself drops in 3 seeds (largest 6e-4) at these steps.
  {
    id: 'ppo-grae-drops-at-huge-steps',
    claim: 2,
    expect: 'observed',
    title: 'PPO with GRAE can lower J — with huge steps, in a few seeds',
    text:
      'On tokens (two turns of two tokens; 01-01 pays 1, a first turn 11 pays 0.4) from random starts, with steps of lr 100 and 20 epochs, PPO+GRAE\'s J drops in 2 of 128 seeds (seed 3 by 0.012 at iteration 2) and GRPO\'s in 5 (by at most 6·10⁻⁴). ' +
      'GRAE feeds every token the advantage of its whole sequence, so one token is fed both signs; after the first big step the clip silences one sign, and the other can drag the token back past where it started. ' +
      'With a sequence ratio (one term per sequence), the exact advantage of each token (PPO+GAE) or SeeUPO no seed drops, and at ordinary steps nothing drops at all (next lesson).',
    config: {
      version: 1,
      env: { preset: 'tokens' },
      policy: { kind: 'tabular', initScale: 2 },
      mode: 'exact',
      iterations: 30,
      seeds: 128,
      optimizer: { kind: 'sgd', lr: 100 },
      algorithms: [
        { id: 'ppo-grae', epochs: 20 },
        { id: 'grpo', epochs: 20 },
        { id: 'ppo-grae-seq', preset: 'ppo-grae', ratio: 'sequence', epochs: 20 },
        { id: 'ppo-gae', epochs: 20 },
        { id: 'seeupo', epochs: 20 },
      ],
    },
    look: 'chart-seeds',
    tour: [
      { text: 'Run it: 128 random starts for each of five algorithms, with very large steps.', target: 'run', action: 'run' },
      { text: 'Find the ▲: PPO+GRAE\'s seed 3 falls by 0.012 at iteration 2 (and seed 22 by 0.008 at iteration 1); GRPO has five tiny ones.', target: 'chart-seeds' },
      { text: 'Claim 2 is observed: one drop under exact updates is enough for "can". Its evidence lists SeeUPO beside it: no drop.', target: 'claim-2' },
    ],
  },
  // 2.6 s. robust: lr 2.1, 4.2 → not observed; seed 1 → not observed; iterations 300, 500 → not
  // observed. (At lr 7 GRPO drops in 2/32 seeds: "ordinary" ends somewhere near lr 5 here.)
  {
    id: 'ppo-grae-monotone-at-ordinary-steps',
    claim: 2,
    expect: 'not observed',
    title: 'At ordinary step sizes PPO with GRAE does not lower J',
    text:
      'The same tokens problem and the same 32 random starts at lr 3 and 4 epochs: no seed of PPO+GRAE or GRPO ever lowers J, and every seed settles (PPO+GRAE at J* in 23 of 32, the rest at the 0.4 of a first turn 11). ' +
      'In exact mode each decision node of a table has its own logits, and the clipped surrogate never promises more than the true improvement, so J can only fall if the optimizer overshoots the surrogate itself. ' +
      'Claim 2 is an existence claim, and here it had its chance: not observed.',
    config: {
      version: 1,
      env: { preset: 'tokens' },
      policy: { kind: 'tabular', initScale: 2 },
      mode: 'exact',
      iterations: 400,
      seeds: 32,
      optimizer: { kind: 'sgd', lr: 3 },
      algorithms: [{ id: 'ppo-grae' }, { id: 'grpo' }, { id: 'seeupo' }],
    },
    look: 'chart-seeds',
    tour: [
      { text: 'Run it: 32 random starts, ordinary steps.', target: 'run', action: 'run' },
      { text: 'Every seed climbs and stays: no ▲ anywhere. Some settle at 0.4 (the first turn 11), the rest at J* = 1.', target: 'chart-seeds' },
    ],
  },
  // 0.8 s. robust: the verdict depends on the mode alone (sampled → not testable in every variant);
  // drops themselves vary: PPO+GRAE 3/4 seeds here, SeeUPO 0/4; at G = 8, lr 1 both had one.
  {
    id: 'sampled-drops-are-not-evidence',
    claim: 2,
    expect: 'not testable',
    title: 'In sampled mode a drop proves nothing',
    text:
      'The tokens problem with sampled groups of 4 and lr 3: PPO+GRAE\'s J drops in 3 of 4 seeds (by up to 0.054), SeeUPO\'s in none, and both reach J*. ' +
      'But each update here is built from 4 random rollouts, so a step can go the wrong way by bad luck, for PPO+GRAE and SeeUPO alike (with groups of 8 at lr 1 each had one drop). ' +
      'So the check refuses to decide: drops only count as evidence under exact updates.',
    config: {
      version: 1,
      env: { preset: 'tokens' },
      mode: 'sampled',
      iterations: 150,
      seeds: 4,
      groupSize: 4,
      optimizer: { kind: 'sgd', lr: 3 },
      algorithms: [{ id: 'ppo-grae' }, { id: 'seeupo' }],
    },
    look: 'chart-seeds',
    tour: [
      { text: 'Run it: sampled updates, 4 rollouts per group.', target: 'run', action: 'run' },
      { text: 'The ▲ are real falls of the exact J, but the step that caused them came from 4 samples.', target: 'chart-seeds' },
    ],
  },
];
