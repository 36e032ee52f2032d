import type { SweepInput } from './schema';
import type { SweepOutcome } from './outcomes';

// Sweeps the page offers in one click (the Sweep view's preset buttons).

export interface SweepPreset {
  id: string;
  title: string;
  /** What to look for, one sentence. */
  note: string;
  doc: SweepInput;
  /** What the maps show first: reaching J* is the phase boundary these presets are about. */
  view: { outcome: SweepOutcome; claim: number };
}

export const SWEEP_PRESETS: readonly SweepPreset[] = [
  {
    id: 'phase-lr-normalization',
    title: 'Phase diagram: GRPO vs SeeUPO, learning rate × normalization (two-prompts)',
    note: 'Where does each algorithm leave the safe exits for J*, and does the normalization move that edge?',
    doc: {
      version: 1,
      base: { version: 1, env: { preset: 'two-prompts' }, mode: 'exact', iterations: 500, seeds: 1, groupSize: 8, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }] },
      axes: [
        { path: 'optimizer.lr', values: [0.03, 0.1, 0.3, 1, 3, 10, 30, 100] },
        { path: 'algorithms.*.normalization', values: ['none', 'group', 'batch'] },
      ],
    },
    view: { outcome: 'atOptimum', claim: 2 },
  },
  {
    id: 'order-lr-lock5',
    title: 'Update order × learning rate: SeeUPO (and GRPO) on the 5-turn lock',
    note: 'Reverse order is one sweep of backward induction: where does it get past the safe exit that forward order and GRPO take?',
    doc: {
      version: 1,
      base: { version: 1, env: { preset: 'lock', turns: 5 }, mode: 'exact', iterations: 40, seeds: 1, algorithms: [{ id: 'seeupo' }, { id: 'grpo' }] },
      axes: [
        { path: 'optimizer.lr', values: [1, 3, 10, 14, 17, 20, 30, 50, 100, 150, 300, 1000] },
        { path: 'algorithms.*.order', values: ['reverse', 'forward'] },
      ],
    },
    view: { outcome: 'verdict', claim: 3 },
  },
];
