import type { Lesson } from './types';
import { standardVariants } from './variants';

// Claim 2: PPO with GRAE can decrease J, where PPO with the true advantage would not. Numbers
// measured with the CLI (CPU executor); times on the 2-core dev machine, `claims X.json --threads 2`.
// Every lesson is run under its holdsUnder by test/integration/lessons-variants.test.ts.
//
// In exact mode with a table drops are rare: J only falls when an update of several epochs moves
// the policy far enough that the surrogate's first-order picture fails. The lesson therefore puts
// PPO+GRAE beside the same PPO fed the exact advantage (its control) on many random starts, so a
// drop can be put on the advantage and not on the step size.

export const CLAIM2: Lesson[] = [
  // 3.5 s (512 seeds × 2). PPO+GRAE drop seeds (≥ 1e-3) against PPO+GAE's: base 13 vs 0 (largest
  // 0.045, seed 488 at iteration 1); lr ×0.5 7 vs 0; lr ×2 7 vs 0; seed 7 5 vs 0; seed 11 5 vs 0
  // (one-sided Fisher p ≈ 1e-4 at 13 vs 0, ≈ 0.03 at 5 vs 0). Across 24 settings (lr 30–300 ×
  // 10–20 epochs × four presets, 128 seeds each) PPO+GRAE dropped in 17 seed-runs, the exact advantage in none.
  {
    id: 'ppo-grae-drops-against-its-control',
    claim: 2,
    expect: 'observed',
    title: 'PPO with GRAE can lower J where the same PPO with the exact advantage does not — rarely',
    text:
      'On the 3-turn lock from 512 random starts (initScale 2), with large steps (lr 100, 20 epochs), PPO+GRAE\'s J drops by at least 0.001 in 13 seeds (the largest, seed 488, by 0.045 at iteration 1), while the same PPO fed the exact advantage Q − V (PPO+GAE, no normalization) never drops: one-sided Fisher p ≈ 1e-4. ' +
      'Why it shows the claim: both take the same steps with the same clip and epochs, so the difference is the advantage; GRAE feeds every turn the advantage of the whole sequence, which is not the turn\'s own advantage, so the clipped objective it maximizes is not a lower bound on the improvement of J, and with the exact advantage it is a faithful local model. ' +
      'The effect is rare but real: 5 to 13 seeds in 512 across seeds and lr ×0.5–×2, and none at ordinary steps (next lesson).',
    config: {
      version: 1,
      env: { preset: 'lock' },
      policy: { kind: 'tabular', initScale: 2 },
      mode: 'exact',
      iterations: 30,
      seeds: 512,
      optimizer: { kind: 'sgd', lr: 100 },
      algorithms: [
        { id: 'ppo-grae', epochs: 20 },
        { id: 'ppo-gae', normalization: 'none', epochs: 20 },
      ],
    },
    look: 'chart-seeds',
    tour: [
      { text: 'Run it: 512 random starts for PPO+GRAE and for the same PPO fed the exact advantage, with very large steps.', target: 'run', action: 'run' },
      { text: 'Claim 2\'s evidence lists the seeds whose J dropped: 13 for PPO+GRAE, none for its control. Select the verdict to see them on the charts.', target: 'claim-2' },
      {
        text: 'The seed charts: the largest drop is seed 488, from 0.35 to 0.30 at iteration 1, before it climbs to J*.',
        standIn: 'The return chart shows the mean of 512 seeds, where one seed\'s fall hardly shows; the ▲ marks where some seed\'s J dropped (hover it for the count). The largest drop, seed 488 from 0.35 to 0.30 at iteration 1, is in the full explorer\'s seed charts.',
        target: 'chart-seeds',
      },
    ],
    holdsUnder: standardVariants(false),
  },
  // 0.6 s. lr ×0.5, ×2, seeds 7 and 11, initScale 0.3 → not observed (no drop; every line at J*).
  // From random starts (initScale 1–2) the verdict stays undecided for hundreds of iterations:
  // seeds that settle at the exit keep creeping (their later turns' probabilities still move).
  {
    id: 'ppo-grae-monotone-at-ordinary-steps',
    claim: 2,
    expect: 'not observed',
    title: 'At ordinary step sizes PPO with GRAE does not lower J',
    text:
      'The same 3-turn lock at lr 3 and 4 epochs, from the uniform start: neither PPO+GRAE nor GRPO ever lowers J, and both reach J* = 1, as does their control, PPO with the exact advantage. ' +
      'Why: the claim says GRAE\'s clipped objective is not a lower bound on the improvement, so J can fall, not that it must; with small steps each update stays where the objective\'s first-order picture is accurate, and J rises. ' +
      'Claim 2 is an existence claim, and here it had its chance: not observed.',
    config: {
      version: 1,
      env: { preset: 'lock' },
      mode: 'exact',
      iterations: 300,
      seeds: 1,
      optimizer: { kind: 'sgd', lr: 3 },
      algorithms: [{ id: 'ppo-grae' }, { id: 'grpo' }, { id: 'ppo-gae', normalization: 'none' }],
    },
    look: 'chart-return',
    tour: [
      { text: 'Run it: PPO+GRAE, GRPO and their control at ordinary steps.', target: 'run', action: 'run' },
      { text: 'Every line climbs to J* = 1 and stays: no drop anywhere.', target: 'chart-return' },
    ],
    holdsUnder: standardVariants(true),
  },
  // 0.3 s. Not testable under every variant: the verdict depends on the mode alone.
  {
    id: 'sampled-drops-are-not-evidence',
    claim: 2,
    expect: 'not testable',
    title: 'In sampled mode a drop proves nothing: not testable',
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
      {
        text: 'The drops are real falls of the exact J, but the step that caused them came from 4 samples.',
        standIn: 'The ▲ on the return chart marks where some seed\'s exact J fell (hover it for the count): real falls, but the step that caused them came from 4 samples.',
        target: 'chart-seeds',
      },
    ],
    holdsUnder: standardVariants(true),
  },
];
