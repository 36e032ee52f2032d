import type { Lesson } from './types';
import { standardVariants } from './variants';

// Claim 3: critic-free simultaneous methods can miss J* where reverse-order SeeUPO reaches it.
// Numbers measured with the CLI (exact mode, CPU executor); times on the 2-core dev machine,
// `claims X.json --threads 2`. Every lesson is run under its holdsUnder by
// test/integration/lessons-variants.test.ts.
//
// The learning-rate map of the 5-turn lock (exact, 300 iterations, uniform start; final J):
//   lr ≤ 0.7   SeeUPO 0.30, GRPO 0.30, PPO+GAE 1 (the critic alone escapes)
//   lr 1       SeeUPO 1 (t95 133), GRPO 0.30, PPO+GAE 1 — but GRPO is still climbing: J* at 443
//   lr 1.5–14  SeeUPO 1, GRPO 1, PPO+GAE 1 up to lr 5 (0.30 from lr 7)
//   lr 17–30   SeeUPO 0.30 at 17, 24 and 30, 1 at 20; GRPO and PPO+GAE 0.30
//   lr ≥ 40    SeeUPO 1 in 1–2 iterations, every simultaneous method 0.30 (the greedy sweep)
// Forward-order SeeUPO ends at 0.30 at every lr of the map (at lr 1 its later turns still creep
// up: 0.57 at iteration 600).

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

const ORDINARY = [{ id: 'seeupo' }, { id: 'seeupo-forward' }, { id: 'grpo' }, { id: 'ppo-gae' }];

export const CLAIM3: Lesson[] = [
  // 0.7 s. lr ×0.5, ×2, seeds 7 and 11, initScale 0.3 → observed (SeeUPO 1.00, the eight others
  // 0.30 in every variant). From lr 40 to 1000 SeeUPO reaches J* in 1–2 iterations.
  {
    id: 'reverse-escapes-the-exit',
    claim: 3,
    expect: 'observed',
    title: 'One greedy sweep of backward induction gets past the safe exit of a 5-turn lock',
    text:
      'The 5-turn lock pays 1 for the code 0-1-0-1-0 and 0.3 for a first token 2 (the exit); at the start the code is 1 sequence in 243. ' +
      'At lr 300 each turn\'s update is all but an argmax (the first update moves the policy by a KL of 85 nats): SeeUPO in reverse order updates turn 5 first and turn 1 last, so each turn maximizes against later turns that have already learned the code — one sweep of backward induction, the theorem\'s own assumption — and J is 0.9994 after one iteration. ' +
      'Every method that updates all turns at once, PPO fed the exact advantage included, moves turn 1 against later turns that are still uniform, where the exit (0.3) is worth far more than the code (1/81), so turn 1 leaves for good and J stays at 0.30: GRPO, GSPO, PPO+GRAE, REINFORCE, RLOO and SeeUPO in forward or random order alike.',
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
        standIn: 'Nine algorithms start from the same uniform policy on the 5-turn lock: J = 0.10. In the trees, edge width = the token\'s probability (1/3 now), a column per turn; green: the code, orange: the exit.',
        target: 'chart-heatmap',
      },
      {
        text: 'Press step for one iteration. SeeUPO\'s turns learn the code one after the other, from turn 5 to turn 1, and J is 0.9994. Every other method sent turn 1 to the exit: J = 0.30.',
        target: 'step',
        action: 'step',
      },
      {
        text: 'Look at GRPO, GSPO and PPO+GAE: turns 2–5 are bright (0.999: they learned the code) and turn 1 is dark. Turn 1 left in the same update, and with it gone nothing reaches turns 2–5 any more.',
        standIn: 'Look at GRPO\'s tree: on the green path turns 2–5 learned the code (thick edges, 0.999), but turn 1\'s thick edge goes to the orange exit. Turn 1 left in the same update, and with it gone nothing reaches turns 2–5 any more.',
        target: 'chart-heatmap',
      },
      {
        text: 'Run to the end: SeeUPO stays at J* = 1; the others never leave 0.30.',
        target: 'run',
        action: 'run',
      },
      {
        text: 'The return chart: one line at J* (dashed) and eight at the exit, drawn as one group. Claim 3 is observed: the same start, SeeUPO at J*, the critic-free methods stuck.',
        target: 'chart-return',
      },
    ],
    holdsUnder: standardVariants(true),
  },
  // 2.4 s. lr ×1.5, ×2, seeds 7 and 11 → not observed (GRPO at J*). Undecided, not a miss, at lr
  // ×0.8 (GRPO still improving at 600), lr ×0.5 (SeeUPO and GRPO still improving; PPO+GAE at J*
  // by 286) and from a random start (initScale 0.3: still improving). At 300 iterations GRPO is
  // still at 0.30 here (t95 443): a cut-off, which rules version 2 reads as "still improving".
  {
    id: 'ordinary-steps-the-exit-only-delays',
    claim: 3,
    expect: 'not observed',
    title: 'At ordinary steps, in a narrow band: the exit only delays GRPO — a critic and reverse order get there first',
    text:
      'The 5-turn lock at lr 1, with ordinary trust-region steps (SeeUPO\'s largest update moves the policy by a KL of 0.016): PPO fed the exact advantage Q − V reaches J* first (95% of the way at iteration 50), SeeUPO in reverse order next (133), and GRPO, which sits at the 0.30 exit for 300 iterations, gets there too (443), so claim 3 is not observed in 600 iterations. ' +
      'Why: with exact updates turn 1\'s code token never quite reaches 0, so the later turns keep learning the code through that thin path until the code outweighs the exit; the critic credits turn 1 with what its own token is worth and reverse order lets the later turns learn first, so both skip most of that wait — the difference at these steps is speed, not where training ends. ' +
      'This is a narrow band: at lr 0.8 GRPO has not got there in 600 iterations, at lr 0.5 neither has reverse order (only the critic has), and from a random start nothing settles, so the verdict there is undecided — open the sweep.',
    config: {
      version: 1,
      env: { preset: 'lock', turns: 5 },
      mode: 'exact',
      iterations: 600,
      seeds: 1,
      optimizer: { kind: 'sgd', lr: 1 },
      algorithms: ORDINARY,
    },
    look: 'chart-return',
    tour: [
      { text: 'Run it: SeeUPO in reverse and forward order, GRPO, and PPO with the exact advantage, at lr 1.', target: 'run', action: 'run' },
      { text: 'PPO+GAE climbs to J* by iteration ~50, reverse-order SeeUPO by ~133, and GRPO, after 300 iterations at the exit, by ~443.', target: 'chart-return' },
      { text: 'Claim 3 is not observed: GRPO reached J* as well. At these steps the methods differ in speed; the sweep shows the band.', target: 'claim-3' },
    ],
    holdsUnder: [{ scale: 'lr', by: 1.5 }, { scale: 'lr', by: 2 }, { seed: 7 }, { seed: 11 }],
    band: {
      note: 'At lr 1–2 every method here but forward order reaches J* within 600 iterations; below lr 1 the slow ones are still climbing at the end. The sweep shows every algorithm\'s final J from lr 0.5 to 3.',
      sweep: {
        version: 1,
        base: { version: 1, env: { preset: 'lock', turns: 5 }, mode: 'exact', iterations: 600, seeds: 1, algorithms: ORDINARY },
        axes: [{ path: 'optimizer.lr', values: [0.5, 0.8, 1, 1.5, 2, 3] }],
      },
      view: { outcome: 'finalJ', claim: 3 },
    },
  },
  // 0.5 s. lr ×0.5, ×2, seeds 7 and 11, initScale 0.3 → not observed (REINFORCE, the slowest, at
  // 0.989–0.998 from the random start).
  {
    id: 'short-lock-everyone-gets-there',
    claim: 3,
    expect: 'not observed',
    title: 'On the 3-turn lock every method finds the code',
    text:
      'With 3 turns the code 0-1-0 is 1 sequence in 27: every method first leans toward the 0.3 exit (turn 1\'s code token dips from 0.33 to 0.16–0.25), but turns 2 and 3 learn the code before turn 1 commits, and pull it back. ' +
      'Every critic-free method reaches J* = 1: GRPO by iteration 10, PPO+GRAE by 16, REINFORCE by 48, and SeeUPO by 10 — so nothing is missed, and claim 3 is not observed. ' +
      'Why: the claim says critic-free methods can miss J*, which needs an exit that wins before the later turns have learned; compare the 5-turn lock, where the code is a factor 9 rarer and all but SeeUPO exit.',
    config: {
      version: 1,
      env: { preset: 'lock' },
      mode: 'exact',
      iterations: 600,
      seeds: 1,
      optimizer: { kind: 'sgd', lr: 2 },
      algorithms: [{ id: 'seeupo' }, { id: 'grpo' }, { id: 'ppo-grae' }, { id: 'ppo-gae' }, { id: 'reinforce' }],
    },
    look: 'chart-return',
    tour: [
      { text: 'Run it: every line climbs to J* = 1.', target: 'run', action: 'run' },
      { text: 'REINFORCE is the slowest (95% of the way at iteration 48) but gets there too; no method stays at the 0.3 exit.', target: 'chart-return' },
    ],
    holdsUnder: standardVariants(true),
  },
];
