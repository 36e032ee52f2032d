import type { Verdict } from '../claims';

/** One step of a lesson's guided tour: what to look at, and what to press. */
export interface TourStep {
  /** Plain words, 1–3 sentences. May contain {placeholders} the page fills from the numbers (see the tour code). */
  text: string;
  /** What the step points at: a data-testid of the page ("run", "step", "step-turn", "chart-return", "chart-heatmap", …). */
  target?: string;
  /** The learner must press this before Next is enabled ("step": one iteration, "step-turn": one turn, "run": to the end). */
  action?: 'step' | 'step-turn' | 'run';
  /** How many presses of `action` the step asks for ("press Step one turn three more times": 3); 1 when absent. */
  times?: number;
}

/**
 * A lesson: a complete experiment (a config of cli-contract.md, version 1) that demonstrates one
 * of the paper's claims (src/core/claims) — or honestly fails to — with the verdict it declares.
 * A test runs every lesson to its end on the CPU executor (tensor for MLP policies) and fails if
 * the claim's verdict differs from `expect`.
 */
export interface Lesson {
  /** Used in links: #v=1&lesson=<id>. Lowercase letters, digits and dashes. */
  id: string;
  /** The claim it is about (1–5). */
  claim: 1 | 2 | 3 | 4 | 5;
  /** The verdict it declares for that claim at the end of the run. */
  expect: Verdict;
  title: string;
  /** 2–4 sentences on the mechanism and what to look at. */
  text: string;
  /** The experiment, as a config JSON (version 1). */
  config: Record<string, unknown>;
  /** The guided tour (may be empty). */
  tour: TourStep[];
  /** Optional: the chart to show first (a data-testid: "chart-return", "chart-seeds" or "chart-heatmap"). */
  look?: 'chart-return' | 'chart-seeds' | 'chart-heatmap';
}
