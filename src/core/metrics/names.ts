// Every metric a run records, and the charts' x axes, defined once. A metric's `name`
// is its array in RunSeries (core/run/series.ts), its field in the result JSON (the CLI's output,
// core/run/result.ts) and its name in the page's CSV (ui/export/csv.ts, which writes a per-turn
// metric as `optimalTokenProb_turn<t>` and a per-context one as `Jcontext[x]`); the rest is how the
// page shows it. The lists below are derived from these, in this order. Imports nothing.

export interface MetricDef {
  /** camelCase: the RunSeries array, the result JSON's field, the CSV's metric name. */
  name: string;
  /** 'evaluation': iterations + 1 values, the policy after k updates; 'update': iterations values, the update k → k + 1. */
  at: 'evaluation' | 'update';
  /** One array per turn or per context (a list of arrays in RunSeries and the result JSON). */
  per?: 'turn' | 'context';
  /** Its name in words: the metric chart's heading and picker entry. */
  label: string;
  /** The title of the axis (or color scale) that shows its values, where a chart titles one. */
  axisLabel?: string;
  /** One line under the metric chart's heading: what is measured, and when. */
  note?: string;
  /** A choice of the metric chart (a link's `view.metric`). */
  chart?: true;
  /** Its values are shares in [0, 1]: the metric chart's y axis runs from 0 to 1. */
  share?: true;
}

export const METRIC_DEFS = [
  { name: 'J', at: 'evaluation', label: 'J', axisLabel: 'J' },
  { name: 'entropy', at: 'evaluation', label: 'Entropy', chart: true, note: "Mean per-token entropy (nats) along the policy's trajectories, at each iteration." },
  { name: 'optimalTokenProb', at: 'evaluation', per: 'turn', label: 'P(optimal token)', axisLabel: 'P(optimal token)' },
  { name: 'Jcontext', at: 'evaluation', per: 'context', label: 'J of a context' },
  { name: 'kl', at: 'update', label: 'KL(π_old‖π_new)', chart: true, note: 'KL(π_old‖π_new) of each iteration, averaged over visited nodes; drawn at the iteration it leads to.' },
  { name: 'clipFraction', at: 'update', label: 'Clip fraction', chart: true, share: true, note: 'Share of ratios the clip cut off in each iteration (0 for rules that do not clip).' },
  { name: 'zeroVarianceGroups', at: 'update', label: 'Zero-variance groups', chart: true, share: true, note: 'Share of groups whose rewards were all equal (no learning signal) in each iteration.' },
  { name: 'gradNorm', at: 'update', label: 'Gradient norm', chart: true, note: 'Norm of the policy gradient in each iteration.' },
  { name: 'wallMs', at: 'update', label: 'Wall time (ms)' },
  {
    name: 'Jgamma',
    at: 'evaluation',
    label: 'J_γ (discounted return)',
    axisLabel: 'J_γ',
    chart: true,
    note: 'E[Σ_t γ^(t−1)·r_t], the return the learners maximize, at each iteration: recorded only with γ < 1 and per-turn rewards (else it is γ^(T−1)·J).',
  },
] as const satisfies readonly MetricDef[];

type Def = (typeof METRIC_DEFS)[number];
export type MetricKey = Def['name'];
type UpdateDef = Extract<Def, { at: 'update' }>;
type ChartDef = Extract<Def, { chart: true }>;
/** A metric of the update k → k + 1. */
export type UpdateMetric = UpdateDef['name'];
/** A metric the metric chart can show. */
export type ChartMetric = ChartDef['name'];

/** Each metric by name. */
export const METRIC = Object.fromEntries(METRIC_DEFS.map((d) => [d.name, d])) as Record<MetricKey, MetricDef>;

const nonEmpty = <T>(xs: readonly T[]): readonly [T, ...T[]] => {
  if (xs.length === 0) throw new Error('an empty metric list');
  return xs as readonly [T, ...T[]];
};

/** The metrics of each update, in the result JSON's and the CSV's order: kl, clipFraction, zeroVarianceGroups, gradNorm, wallMs. */
export const UPDATE_METRICS = nonEmpty(METRIC_DEFS.filter((d): d is UpdateDef => d.at === 'update').map((d) => d.name));

/** The metric chart's choices, in its picker's order: entropy, kl, clipFraction, zeroVarianceGroups, gradNorm, Jgamma (Jgamma offered only where it is recorded). */
export const CHART_METRICS = nonEmpty(METRIC_DEFS.filter((d): d is ChartDef => 'chart' in d).map((d) => d.name));

export interface XAxisDef {
  name: string;
  /** The x-axis picker's entry. */
  label: string;
  /** The title under a chart's x axis. */
  title: string;
  /** The unit after a value in a chart's tooltip ("1.2K rollouts"). */
  unit: string;
}

export const X_AXIS_DEFS = [
  { name: 'iterations', label: 'Iterations', title: 'iteration', unit: 'iterations' },
  { name: 'steps', label: 'Gradient steps', title: 'gradient steps (per run)', unit: 'steps' },
  { name: 'rollouts', label: 'Rollouts sampled', title: 'rollouts sampled (per run)', unit: 'rollouts' },
] as const satisfies readonly XAxisDef[];

export type XAxis = (typeof X_AXIS_DEFS)[number]['name'];
/** The x axes, in the picker's order (iterations first: the default). */
export const X_AXES = nonEmpty(X_AXIS_DEFS.map((d) => d.name));
/** Each x axis by name. */
export const X_AXIS = Object.fromEntries(X_AXIS_DEFS.map((d) => [d.name, d])) as Record<XAxis, XAxisDef>;
