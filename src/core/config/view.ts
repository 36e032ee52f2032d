import { CHART_METRICS, type ChartMetric, type XAxis } from '../metrics/names';

// Chart choices a permalink carries besides the experiment (defaults first): the x axis and the
// metric chart's metric, both listed in core/metrics/names.ts.

export { X_AXES, type XAxis } from '../metrics/names';

export const METRICS = CHART_METRICS;
export type MetricName = ChartMetric;

export interface View {
  metric: MetricName;
  x: XAxis;
}

export const DEFAULT_VIEW: View = { metric: 'entropy', x: 'iterations' };

/**
 * Parts of the page a link can hide (`hide=…`, besides the controls' config paths such as
 * `seeds`, `optimizer.lr` or `algorithms.0.clip`; `algorithms.*.clip` hides that field of every
 * algorithm): sections of the settings, transport buttons, panels and charts.
 */
export const HIDE_PARTS = [
  'controls', 'env', 'policy', 'algorithms',
  'pause', 'step', 'step-turn', 'reset', 'speed',
  'share', 'backend', 'caption', 'verdicts', 'summary', 'explain',
  'chart-gap', 'chart-metric', 'chart-seeds', 'chart-heatmap', 'chart-tree',
] as const;

/** One entry of `hide`: a part name or a dotted config path (numeric indices and `*` allowed). */
export const HIDE_ITEM = /^[A-Za-z][A-Za-z0-9-]{0,39}(\.([A-Za-z][A-Za-z0-9]{0,39}|\d{1,4}|\*)){0,5}$/;
export const HIDE_EXAMPLE = 'e.g. seeds,optimizer.lr,algorithms.*.clip,step-turn,chart-heatmap';
