import type { Verdict } from '../claims';
import type { SweepInput } from '../sweep/schema';
import type { SweepOutcome } from '../sweep/outcomes';
import type { Variant } from './variants';

/** One step of a lesson's guided tour: what to look at, and what to press. */
export interface TourStep {
  /** Plain words, 1–3 sentences. May contain {placeholders} the page fills from the numbers (see the tour code). */
  text: string;
  /** What the step points at: a data-testid of the page ("run", "step", "step-turn", "chart-return", "chart-heatmap", …). */
  target?: string;
  /**
   * The text where the page shows the target's stand-in instead of the target (the classroom
   * draws the policy tree in place of the credit-by-turn heatmaps, and the return chart in place
   * of the seed charts): it must describe what is on screen there. Required for those two targets.
   */
  standIn?: string;
  /** The learner must press this before Next is enabled ("step": one iteration, "step-turn": one turn, "run": to the end). */
  action?: 'step' | 'step-turn' | 'run';
  /** How many presses of `action` the step asks for ("press Step one turn three more times": 3); 1 when absent. */
  times?: number;
}

/**
 * A lesson: a complete experiment (a config as docs/cli.md describes it, version 1) that demonstrates one
 * of the paper's claims (src/core/claims) — or honestly fails to — with the verdict it declares.
 * A test runs every lesson to its end on the CPU executor (tensor for MLP policies) and fails if
 * the claim's verdict differs from `expect`.
 */
export interface Lesson {
  /** Used in links: #v=1&lesson=<id>. Lowercase letters, digits and dashes. */
  id: string;
  /** The claim it is about (1–5). */
  claim: 1 | 2 | 3 | 4 | 5;
  /** The verdict it declares for that claim (or for `part` of it) at the end of the run. */
  expect: Verdict;
  /** Set when the lesson is about one part of its claim (claim 4's part c, "order matters"), which has its own verdict. */
  part?: 'c';
  title: string;
  /** 2–4 sentences on the mechanism and what to look at. */
  text: string;
  /** The experiment, as a config JSON (version 1). */
  config: Record<string, unknown>;
  /** The guided tour (may be empty). */
  tour: TourStep[];
  /** Optional: the chart to show first (a data-testid: "chart-return", "chart-seeds" or "chart-heatmap"). */
  look?: 'chart-return' | 'chart-seeds' | 'chart-heatmap';
  /**
   * The changes the verdict was checked under (src/core/lessons/variants.ts): a test runs the
   * lesson under each and fails unless the verdict is still `expect`. Every lesson declares the
   * learning rate ×0.5 and ×2, two other experiment seeds and, where it starts from a uniform
   * policy, a random start — unless its effect lives in a narrow band (`band`).
   */
  holdsUnder: Variant[];
  /**
   * Set when the effect lives only in a narrow band of settings: what the band is (one sentence),
   * and the sweep that shows it (opened in the Sweep view). The title and text say so too.
   */
  band?: { note: string; sweep: SweepInput; view: { outcome: SweepOutcome; claim: number } };
}
