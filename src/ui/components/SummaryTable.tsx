import { useEffect, useMemo, useRef, useState } from 'react';
import { summarizeLive, type LiveSummary } from '../../core/metrics/captions';
import { divergedWhere } from '../../core/metrics/summary';
import { seedsText as seedsOfText, type Live } from '../live';
import type { AlgorithmLine, Plan } from '../plan';
import { useApp } from '../store';
import { memoLast } from '../memo-last';
import { SLOTS, timedSlot, useShownData } from './charts/common';
import './summary.css';

const DASH = '—';

/** The streamed runs belong to this plan's layout (one series per algorithm × seed, iterations + 1 values). */
export function liveFits(plan: Plan, live: Live): boolean {
  const { exp } = plan;
  return live.runs.length === exp.algorithms.length * exp.seedIndices.length && live.runs.every((s) => s.J.length === exp.iterations + 1 && s.algoIndex < exp.algorithms.length);
}

/**
 * Per-algorithm summaries of the live runs at the iteration every run has completed; [] before a run.
 * `live` is mutated in place, so this recomputes when the store's `version` changes.
 */
export function useLiveSummaries(slot: number = SLOTS.summary): LiveSummary[] {
  const plan = useApp((s) => s.plan);
  // in a task of its own, at its own pace on a large experiment (charts/common.tsx)
  const { live, version } = useShownData(slot);
  return useMemo(() => (plan ? liveSummaries({ plan, live, version, slot }) : []), [plan, live, version, slot]);
}

/** The last summaries computed, shared by the verdicts, the table and the caption (each in its own slot, mostly on the same version). */
export const liveSummaries = memoLast(
  ({ plan, live, version }: { plan: Plan; live: Live | null; version: number; slot: number }) => [plan, live, version],
  ({ plan, live, slot }) =>
    timedSlot(slot, () => (!live || live.runs.length === 0 || !liveFits(plan, live) ? [] : summarizeLive(plan.exp, plan.Jstar, live.runs, live.iteration))),
);

const HEADERS: { key: string; text: string; title: string }[] = [
  { key: 'algorithm', text: 'Algorithm', title: 'The algorithm; the swatch is the colour of its curve in the chart' },
  {
    key: 'finalJ',
    text: 'final J (95% CI)',
    title:
      'Mean over seeds of J at the iteration shown (the latest while running), ± half-width of its 95% Student-t interval. J is the expected return of the policy: exact, or a Monte-Carlo estimate when flagged. A seed that diverged (a NaN or ∞ in any of its numbers) counts with its last J, and the cell says at which iteration it diverged',
  },
  { key: 'atOptimum', text: 'at J*', title: 'Seeds whose final J is within 1% of the rewards’ range (max R̄ − min R̄) of J*, the best possible expected return; a seed that diverged is not counted' },
  {
    key: 'itersTo95',
    text: 'iterations to 95%',
    title: 'Median over seeds of the first iteration with J ≥ J₀ + 0.95·(J* − J₀); seeds that never got there count as ∞, so — means most seeds never did',
  },
  {
    key: 'violations',
    text: 'violations',
    title:
      'Monotonic-improvement violations: iterations where J dropped (J_k+1 < J_k − 1e-6·(max R̄ − min R̄)), total over seeds and the number of seeds with any. Not counted when J is a Monte-Carlo estimate',
  },
  {
    key: 'wallTime',
    text: 'compute time',
    title: "Compute time of the algorithm's runs up to the iteration shown, summed over its seeds, in seconds (runs computed together in one batch each count the batch's time)",
  },
];

const seedsText = (k: number, n: number) => `${k}/${n} ${n === 1 ? 'seed' : 'seeds'}`;

function Row({ line, s, turnJ }: { line: AlgorithmLine; s: LiveSummary | undefined; turnJ?: { J: number; done: number; turns: number } }) {
  const has = s !== undefined && s.seeds > 0;
  const f = s?.summary.finalJ;
  const mean = has && f && Number.isFinite(f.mean) ? f.mean : null;
  const finalText = mean === null || !f ? DASH : f.n <= 1 ? mean.toFixed(3) : `${mean.toFixed(3)} ± ${((f.hi - f.lo) / 2).toFixed(3)}`;
  const median = has ? s.summary.medianItersTo95 : null;
  const estimate = has && s.jIsEstimate;
  const diverged = has ? divergedWhere(s.divergedAt) : null;
  const viol = !has ? DASH : estimate ? 'n/a (Monte-Carlo J)' : s.summary.violations === 0 ? '0' : `${s.summary.violations} in ${s.summary.seedsWithViolations} ${s.summary.seedsWithViolations === 1 ? 'seed' : 'seeds'}`;
  return (
    <tr data-algorithm={line.id}>
      <th scope="row">
        <span className="swatch" style={{ background: line.color }} aria-hidden="true" />
        {line.label}
      </th>
      <td data-metric="finalJ" data-value={mean ?? undefined} data-diverged={diverged !== null ? s!.divergedSeeds : undefined}>
        {finalText}
        {diverged !== null && <span className="muted">{` · diverged ${diverged} in ${seedsText(s!.divergedSeeds, s!.seeds)}`}</span>}
        {turnJ && Number.isFinite(turnJ.J) && (
          <span className="turn-step-j" data-testid="turn-step-j" data-value={String(turnJ.J)}>{` → ${turnJ.J.toFixed(3)} after ${turnJ.done} of ${turnJ.turns} turn steps`}</span>
        )}
      </td>
      <td data-metric="atOptimum" data-value={has ? s.atOptimumSeeds : undefined}>
        {has ? seedsText(s.atOptimumSeeds, s.seeds) : DASH}
      </td>
      <td data-metric="itersTo95" data-value={median ?? undefined} title={has && median === null ? 'most seeds never got 95% of the way to J*' : undefined}>
        {median === null ? DASH : median}
      </td>
      <td data-metric="violations" data-value={has && !estimate ? s.summary.violations : undefined} data-seeds={has && !estimate ? s.summary.seedsWithViolations : undefined}>
        {viol}
      </td>
      <td data-metric="wallTime" data-value={has ? s.wallSeconds : undefined}>
        {has ? `${s.wallSeconds.toFixed(2)} s` : DASH}
      </td>
    </tr>
  );
}

/** Whether the table is wider than its box (a phone): the page then says that it scrolls. */
function useOverflow(deps: unknown[]): { scroller: React.RefObject<HTMLDivElement | null>; overflow: boolean } {
  const scroller = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState(false);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const check = () => setOverflow(el.scrollWidth > el.clientWidth + 1);
    check();
    addEventListener('resize', check);
    return () => removeEventListener('resize', check);
  }, deps);
  return { scroller, overflow };
}

export function SummaryTable() {
  const plan = useApp((s) => s.plan);
  const status = useApp((s) => s.status);
  const elapsed = useApp((s) => s.elapsed);
  const backend = useApp((s) => s.backend);
  const summaries = useLiveSummaries();
  const turnStep = useApp((s) => s.turnStep);
  const { scroller, overflow } = useOverflow([plan, summaries]);
  if (!plan) return null;
  const { exp, Jstar } = plan;
  const iteration = summaries.length ? summaries[0].iteration : null;
  const estimate = summaries.some((s) => s.jIsEstimate);
  const where =
    plan.choice.executor === 'cpu'
      ? `on ${plan.threads} worker ${plan.threads === 1 ? 'thread' : 'threads'}`
      : plan.choice.executor === 'webgpu'
        ? 'on the WebGPU executor (WGSL)'
        : `on the tensor executor (tfjs ${backend?.backend ?? exp.backend ?? 'backend pending'})`;
  const time = status === 'done' ? `finished in ${elapsed.toFixed(2)} s` : status === 'running' ? `running for ${elapsed.toFixed(1)} s` : `${elapsed.toFixed(2)} s so far`;
  return (
    <section className="card" aria-labelledby="summary-heading">
      <h2 id="summary-heading">{iteration === null ? 'Summary' : `Summary at iteration ${iteration} of ${exp.iterations}`}</h2>
      <div className="summary-scroll" ref={scroller} data-overflow={overflow} data-testid="summary-scroll">
        <table className="summary" data-testid="summary-table">
          <caption className="summary-caption" data-testid="summary-caption">
            {`J* = ${Jstar.toFixed(3)} · `}
            {iteration === null ? `no iterations yet (${exp.iterations} planned)` : `iteration ${iteration} of ${exp.iterations}`}
            {` · ${seedsOfText(exp)} per algorithm · ${exp.mode} mode`}
            {estimate ? ' · J is a Monte-Carlo estimate' : ''}
          </caption>
          <thead>
            <tr>
              {HEADERS.map((h) => (
                <th key={h.key} scope="col" title={h.title} data-metric-header={h.key}>
                  {h.text}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {plan.algorithms.map((line, i) => (
              <Row key={line.id} line={line} s={summaries[i]} turnJ={turnStep ? { J: turnStep.algorithms[i]?.J ?? NaN, done: turnStep.done, turns: turnStep.turns } : undefined} />
            ))}
          </tbody>
        </table>
      </div>
      {overflow && (
        <p className="summary-scroll-hint" data-testid="summary-scroll-hint">
          The table is wider than the screen: scroll it sideways →
        </p>
      )}
      <p className="muted" data-testid="summary-note">
        {iteration === null
          ? 'Press Run to fill the table.'
          : `J* = ${Jstar.toFixed(3)} · ${seedsOfText(exp)} × ${exp.iterations} iterations · ${time} ${where}.`}
      </p>
    </section>
  );
}
