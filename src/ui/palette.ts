// Colour-blind-safe series colours: Okabe–Ito (black left out so lines stay visible on dark
// backgrounds) plus Paul Tol's wine and a mid grey. The order follows the default algorithm list
// (REINFORCE, RLOO, GRPO, PPO+GRAE, GSPO, PPO+GAE, SeeUPO ×3) so that the pale yellow falls on a
// baseline and the SeeUPO variants get the strongest colours.
export const SERIES_COLORS = [
  '#8C8C8C', // grey
  '#F0E442', // yellow
  '#E69F00', // orange
  '#CC79A7', // reddish purple
  '#56B4E9', // sky blue
  '#882255', // wine (Tol)
  '#0072B2', // blue
  '#009E73', // bluish green
  '#D55E00', // vermillion
] as const;

export function seriesColor(i: number): string {
  return SERIES_COLORS[i % SERIES_COLORS.length];
}
