// Colour-blind-safe series colours: Okabe–Ito (black left out so lines stay visible on dark
// backgrounds), then Paul Tol's wine and a mid grey for the eighth and ninth series.
export const SERIES_COLORS = [
  '#0072B2', // blue
  '#E69F00', // orange
  '#009E73', // bluish green
  '#CC79A7', // reddish purple
  '#56B4E9', // sky blue
  '#D55E00', // vermillion
  '#F0E442', // yellow
  '#882255', // wine (Tol)
  '#8C8C8C', // grey
] as const;

export function seriesColor(i: number): string {
  return SERIES_COLORS[i % SERIES_COLORS.length];
}
