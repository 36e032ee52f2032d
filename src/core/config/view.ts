// Chart choices a permalink carries besides the experiment (defaults first).

export const X_AXES = ['iterations', 'steps', 'rollouts'] as const;
export type XAxis = (typeof X_AXES)[number];

export const METRICS = ['entropy', 'kl', 'clipFraction', 'zeroVarianceGroups', 'gradNorm'] as const;
export type MetricName = (typeof METRICS)[number];

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
  'chart-gap', 'chart-metric', 'chart-seeds', 'chart-heatmap',
] as const;

/** One entry of `hide`: a part name or a dotted config path (numeric indices and `*` allowed). */
export const HIDE_ITEM = /^[A-Za-z][A-Za-z0-9-]{0,39}(\.([A-Za-z][A-Za-z0-9]{0,39}|\d{1,4}|\*)){0,5}$/;
export const HIDE_EXAMPLE = 'e.g. seeds,optimizer.lr,algorithms.*.clip,step-turn,chart-heatmap';
