import type { Lesson } from './types';

// Claim 3: critic-free simultaneous methods can miss J* where reverse-order SeeUPO reaches it.
// Numbers measured with the CLI (exact mode, CPU executor); times on the 2-core dev machine,
// `claims X.json --threads 2`.

/** Every critic-free method of the explorer, PPO with the exact advantage, and SeeUPO in its three orders. */
const EVERYONE = [
  { id: 'seeupo' },
  { id: 'seeupo-forward' },
  { id: 'seeupo-random' },
  { id: 'grpo' },
  { id: 'gspo' },
  { id: 'ppo-grae' },
  { id: 'ppo-gae' },
  { id: 'reinforce' },
  { id: 'rloo' },
];

export const CLAIM3: Lesson[] = [
  // 0.6 s. robust: lr 210, 420 → observed; seed 1 → observed (zero init: every seed is the same
  // curve); iterations 30, 50 → observed; a random start (initScale 0.3, 4 seeds) → observed (SeeUPO
  // 4/4 at J*, GRPO 4/4 stuck). Not at lr 14–50: there SeeUPO's escape depends on the lr (14 and
  // 20 reach J*, 17, 24 and 28 do not) and, at lr 50, on the start (initScale 0.3: 4/8 seeds).
  // From lr 150 to 1000 SeeUPO reaches J* in 16/16 seeds from zero and from initScale 0.3.
  {
    id: 'reverse-escapes-the-exit',
    claim: 3,
    expect: 'observed',
    title: 'Only reverse order gets past the safe exit of a 5-turn lock',
    text:
      'The 5-turn lock pays 1 for the code 0-1-0-1-0 and 0.3 for a first token 2 (the exit); at the start the code is 1 sequence in 243. ' +
      'Every method that updates all turns at once takes the exit in its first update: GRPO, GSPO and PPO+GAE (fed the exact advantage Q − V) even learn turns 2–5 of the code perfectly in that same update (0.999 each), but turn 1 has already left, and J stays at 0.30 for good; PPO+GRAE, REINFORCE and RLOO, SeeUPO in forward and random order, too. ' +
      'SeeUPO in reverse order updates turn 5 first and turn 1 last, so turn 1 decides after the later turns have learned the code: J is 0.9994 after one iteration.',
    config: {
      version: 1,
      env: { preset: 'lock', turns: 5 },
      mode: 'exact',
      iterations: 40,
      seeds: 1,
      optimizer: { kind: 'sgd', lr: 300 },
      algorithms: EVERYONE,
    },
    look: 'chart-heatmap',
    tour: [
      {
        text: 'Nine algorithms start from the same uniform policy on the 5-turn lock: J = 0.10. The heatmaps show, turn by turn, the probability of the code\'s token.',
        target: 'chart-heatmap',
      },
      {
        text: 'Press step for one iteration. SeeUPO\'s turns learn the code one after the other, from turn 5 to turn 1, and J is 0.9994. Every other method sent turn 1 to the exit: J = 0.30.',
        target: 'step',
        action: 'step',
      },
      {
        text: 'Look at GRPO, GSPO and PPO+GAE: turns 2–5 are bright (0.999: they learned the code) and turn 1 is dark. Turn 1 left in the same update, and with it gone nothing reaches turns 2–5 any more.',
        target: 'chart-heatmap',
      },
      {
        text: 'Run to the end: SeeUPO stays at J* = 1; the others never leave 0.30.',
        target: 'run',
        action: 'run',
      },
      {
        text: 'The return chart: one line at J* (dashed) and eight at the exit. Claim 3 is observed: the same start, SeeUPO at J*, the critic-free methods stuck.',
        target: 'chart-return',
      },
    ],
  },
  // 0.8 s. robust: lr 1.4, 2.8 → not observed; seed 1 → not observed (same curve, zero init);
  // iterations 225, 375 → not observed. From a random start (initScale 0.3) REINFORCE is slower:
  // undecided at 300 iterations (2/4 seeds still improving), not observed at 600 (8/8 seeds at J*).
  {
    id: 'short-lock-everyone-gets-there',
    claim: 3,
    expect: 'not observed',
    title: 'On the 3-turn lock every method finds the code',
    text:
      'With 3 turns the code 0-1-0 is 1 sequence in 27: every method first leans toward the 0.3 exit (turn 1\'s code token dips from 0.33 to 0.16–0.25), but turns 2 and 3 learn the code before turn 1 commits, and pull it back. ' +
      'Every critic-free method reaches J* = 1: GRPO by iteration 10, PPO+GRAE by 16, REINFORCE by 48 (0.996 at the end), and SeeUPO by 10 — so nothing is missed, and claim 3 is not observed. ' +
      'Compare the 5-turn lock lesson: the same methods, one factor 9 rarer code, and all but SeeUPO exit.',
    config: {
      version: 1,
      env: { preset: 'lock' },
      mode: 'exact',
      iterations: 300,
      seeds: 1,
      optimizer: { kind: 'sgd', lr: 2 },
      algorithms: [{ id: 'seeupo' }, { id: 'grpo' }, { id: 'ppo-grae' }, { id: 'ppo-gae' }, { id: 'reinforce' }],
    },
    look: 'chart-return',
    tour: [
      { text: 'Run it: every line climbs to J* = 1.', target: 'run', action: 'run' },
      { text: 'REINFORCE is the slowest (95% of the way at iteration 48) but gets there too; no method stays at the 0.3 exit.', target: 'chart-return' },
    ],
  },
];
