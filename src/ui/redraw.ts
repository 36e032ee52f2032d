// The charts' one redraw throttle. Both halves of it read this constant: the store
// bumps `version` (what the charts follow) at most this often while a run streams, the progress
// bar following every frame (session-actions.ts publish); and the charts follow a throttled copy
// of `version`, so that a burst of forced bumps (Step pressed quickly, a run ending just after a
// redraw) redraws them at most this often too, the last version always shown (charts/common.tsx).

/** Charts redraw at most once per this many milliseconds (a chart render is far costlier than the progress bar). */
export const CHART_REDRAW_MS = 250;
