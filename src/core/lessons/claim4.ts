import type { Lesson } from './types';

// Claim 4: SeeUPO in reverse order improves monotonically and reaches J*; forward or random order
// need not. Numbers measured with the CLI; times on the 2-core dev machine, `claims X.json --threads 2`.

export const CLAIM4: Lesson[] = [
  // 0.5 s. robust: lr 210, 420 → observed; seed 1 → observed (zero init: the same curve);
  // iterations 22, 38 → observed; a random start (initScale 0.3, 4 seeds) → observed. (At lr 50 the
  // zero start worked but initScale 0.3 did not: SeeUPO reached J* in 0/4 seeds; see claim3.ts.)
  {
    id: 'reverse-order-turn-by-turn',
    claim: 4,
    expect: 'observed',
    title: 'Reverse order, turn by turn: backward induction on a 5-turn lock',
    text:
      'SeeUPO updates one turn at a time. In reverse order turn 5 learns first (its code token 0.33 → 0.999), then turn 4, 3 and 2 (1.00 each), and turn 1 last, when the code is already worth more than the 0.3 exit: J rises 0.10 → 0.11 → 0.14 → 0.21 → 0.43 → 0.9994 within the first iteration, and never drops. ' +
      'Forward order updates turn 1 first, against turns 2–5 that are still uniform, so it takes the exit at once (0.33 → 0.00, J = 0.30), and the later turns get no signal again: they stay at 0.33 for good. ' +
      'Random order drew turn 3 and then turn 1, and exits as well: use step-turn and watch which row of the heatmap moves.',
    config: {
      version: 1,
      env: { preset: 'lock', turns: 5 },
      mode: 'exact',
      iterations: 30,
      seeds: 1,
      optimizer: { kind: 'sgd', lr: 300 },
      algorithms: [{ id: 'seeupo' }, { id: 'seeupo-forward' }, { id: 'seeupo-random' }],
    },
    look: 'chart-heatmap',
    tour: [
      {
        text: 'Three copies of SeeUPO that differ only in the order of the turns. Each heatmap row is a turn; all start at 1/3 for the code\'s token, J = 0.10.',
        target: 'chart-heatmap',
      },
      {
        text: 'Press step-turn. Reverse order updates turn 5 (0.33 → 0.999, J 0.11). Forward order updates turn 1 — straight to the exit: 0.00, J = 0.30.',
        target: 'step-turn',
        action: 'step-turn',
      },
      {
        text: 'Press step-turn again: reverse order\'s turn 4 learns against a turn 5 that already knows the code (1.00, J 0.14). Forward order\'s turn 2 gets no signal at all: nobody passes turn 1 any more.',
        target: 'step-turn',
        action: 'step-turn',
      },
      {
        text: 'Press step-turn three more times: turns 3 and 2 go to 1.00 (J 0.21, 0.43), and turn 1 last: now the code beats the exit, turn 1 takes it (1.00), and J is 0.9994 after one iteration.',
        target: 'step-turn',
        action: 'step-turn',
        times: 3,
      },
      {
        text: 'Run to the end: reverse order stays at J* with no ▲ (no drop); forward and random stay at 0.30. All three parts of claim 4 are observed.',
        target: 'run',
        action: 'run',
      },
    ],
  },
  // 3.5 s (tensor executor, wasm). robust: lr 1.05 → not observed (6/8 seeds drop), lr 2.1 → not
  // observed (2/8); seed 1 → not observed (6/8, largest 0.70); iterations 38, 62 → not observed
  // (6/8). The same experiment with a table (initScale 1): no drop, 8/8 seeds at J*.
  {
    id: 'shared-mlp-breaks-monotonic',
    claim: 4,
    expect: 'not observed',
    title: 'A shared network breaks reverse order\'s monotonic improvement',
    text:
      'The guarantee needs each turn to have its own parameters; here one small network (32 tanh units) plays every turn, so an update meant for one turn moves the others too — and the code 0-1-0 wants token 0 at turns 1 and 3 but token 1 at turn 2. ' +
      'SeeUPO in reverse order drops J in 6 of 8 seeds (16 drops): seed 1 falls from 0.80 to 0.00 at iteration 3, as turn 3\'s code token rises to 1.00 and turn 2\'s collapses from 0.94 to 0.00, then recovers; seeds 2 and 5 end at J = 0. ' +
      'The same run with a table policy (random start, initScale 1) has no drop and every seed at J*: look for the ▲ on the return chart and the cliffs in the seed charts.',
    config: {
      version: 1,
      env: { preset: 'lock' },
      policy: { kind: 'mlp' },
      mode: 'exact',
      iterations: 50,
      seeds: 8,
      optimizer: { kind: 'sgd', lr: 1.5 },
      algorithms: [{ id: 'seeupo', epochs: 10 }],
    },
    look: 'chart-seeds',
    tour: [
      {
        text: 'SeeUPO in reverse order, exact updates, 8 seeds — but the policy is one shared network (hidden [32], tanh) instead of a table. Run it.',
        target: 'run',
        action: 'run',
      },
      {
        text: 'The ▲ marks are drops of J: 16 of them. The same run with a table has none; the theory needs each turn to move only its own parameters.',
        target: 'chart-return',
      },
      {
        text: 'Seed 1 climbs to 0.80, falls to 0.00 at iteration 3 and climbs back to 1; seeds 2 and 5 end at 0. Only one seed of eight ends at J*.',
        target: 'chart-seeds',
      },
      {
        text: 'The heatmap (mean over seeds): turn 2, the one turn that needs token 1, ends lowest (0.25, against 0.37 for turns 1 and 3). Seeds 2 and 5 end playing 0-0-0, which pays nothing.',
        target: 'chart-heatmap',
      },
    ],
  },
  // 0.7 s. robust: lr 1.4, 2.8 → not observed; seed 1 → not observed (same curve, zero init);
  // iterations 150, 250 → not observed; a random start (initScale 0.3, 4 seeds) → not observed.
  {
    id: 'short-lock-order-does-not-matter',
    claim: 4,
    expect: 'not observed',
    title: 'On an easy lock the order of the turns makes no difference',
    text:
      'On the 3-turn lock the code is common enough (1 in 27) and the steps small enough (lr 2, clip 0.2) that turn 1 only leans toward the exit (its code token dips from 0.33 to about 0.25) before turns 2 and 3 learn the code and pull it back, whichever turn moves first. ' +
      'Reverse, forward and random order all reach J* = 1 without a drop, 95% of the way at iterations 10, 10 and 9: parts (a) and (b) hold, but part (c), that order matters, does not, so claim 4 is not observed here. ' +
      'Compare the 5-turn lock, where forward order exits at once.',
    config: {
      version: 1,
      env: { preset: 'lock' },
      mode: 'exact',
      iterations: 200,
      seeds: 1,
      optimizer: { kind: 'sgd', lr: 2 },
      algorithms: [{ id: 'seeupo' }, { id: 'seeupo-forward' }, { id: 'seeupo-random' }],
    },
    look: 'chart-return',
    tour: [
      { text: 'Run it: three orders, three lines on top of one another.', target: 'run', action: 'run' },
      { text: 'All at J* by iteration ~10, no drop. Order matters only when one turn can commit before the others have learned.', target: 'chart-return' },
    ],
  },
  // 2.5 s. robust: lr 7 → not observed (5/32 stuck), lr 14 → not observed (4/32); seed 1 → not
  // observed (1/32 stuck); iterations 45, 75 → not observed (4/32). Part (c) is observed in every
  // one of these (forward 7/32, random 19/32 at J* in the base run).
  {
    id: 'reverse-order-not-infallible',
    claim: 4,
    expect: 'not observed',
    title: 'Order matters, but reverse order does not save every start',
    text:
      'Random starting logits (initScale 1), a 4-turn lock and big unclipped steps (lr 10, clip 10, 20 epochs). Order clearly matters: reverse order reaches J* in 28 of 32 seeds, in 1 iteration (median), random order in 19 and forward order in 7. ' +
      'But in 4 seeds (1, 12, 22, 29) reverse order also settles on the 0.3 exit: there the later turns start far from the code (seed 1: 0.07 at turn 3, 0.01 at turn 4), one sweep lifts them only to 0.08 and 0.02, the code is still worth less than 0.3 to turn 1 when its turn comes, and it exits for good. ' +
      'Part (b), "reaches J*", needs every seed, so claim 4 is not observed — read the seed charts.',
    config: {
      version: 1,
      env: { preset: 'lock', turns: 4 },
      policy: { kind: 'tabular', initScale: 1 },
      mode: 'exact',
      iterations: 60,
      seeds: 32,
      optimizer: { kind: 'sgd', lr: 10 },
      algorithms: [
        { id: 'seeupo', clip: 10, epochs: 20 },
        { id: 'seeupo-forward', clip: 10, epochs: 20 },
        { id: 'seeupo-random', clip: 10, epochs: 20 },
      ],
    },
    look: 'chart-seeds',
    tour: [
      { text: 'Run it: 32 random starts for each order.', target: 'run', action: 'run' },
      { text: 'Reverse order: 28 seeds at J* = 1, 4 flat at 0.3. Forward: 7 at J*. Random: 19.', target: 'chart-seeds' },
      { text: 'The mean return of reverse order is 0.91: far above the others, but not J*.', target: 'chart-return' },
    ],
  },
];
