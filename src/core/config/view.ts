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
