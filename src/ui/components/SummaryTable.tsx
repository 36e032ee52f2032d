import type { ExperimentResult } from '../../core/run/result';
import { useApp } from '../store';
import type { AlgorithmLine } from '../plan';

type Summary = ExperimentResult['algorithms'][number]['summary'];

const DASH = '—';

const where = (r: ExperimentResult) =>
  r.executor === 'cpu' ? `on ${r.threads} worker ${r.threads === 1 ? 'thread' : 'threads'}` : `on the tensor executor (tfjs ${r.backend})`;

function finalJ(s: Summary): string {
  const { mean, lo, hi } = s.finalJ;
  if (mean === null) return DASH;
  const half = lo !== null && hi !== null ? (hi - lo) / 2 : null;
  return half === null ? mean.toFixed(3) : `${mean.toFixed(3)} ± ${half.toFixed(3)}`;
}

function Row({ line, summary, seeds }: { line: AlgorithmLine; summary: Summary | null; seeds: number }) {
  const atOpt = summary ? `${Math.round(summary.atOptimum * seeds)}/${seeds} seeds` : DASH;
  const viol = summary ? `${summary.violations}${summary.violations ? ` (${summary.seedsWithViolations} seeds)` : ''}` : DASH;
  const its = summary ? (summary.medianItersTo95 === null ? 'not reached' : String(summary.medianItersTo95)) : DASH;
  return (
    <tr data-algorithm={line.id}>
      <th scope="row">
        <span className="swatch" style={{ background: line.color }} aria-hidden="true" />
        {line.label}
      </th>
      <td data-metric="finalJ" data-value={summary?.finalJ.mean ?? undefined}>{summary ? finalJ(summary) : DASH}</td>
      <td data-metric="atOptimum">{atOpt}</td>
      <td data-metric="violations">{viol}</td>
      <td data-metric="itersTo95">{its}</td>
    </tr>
  );
}

export function SummaryTable() {
  const plan = useApp((s) => s.plan);
  const result = useApp((s) => s.result);
  if (!plan) return null;
  const seeds = plan.exp.seeds;
  return (
    <section className="card">
      <h2>Summary at iteration {plan.exp.iterations}</h2>
      <table className="summary" data-testid="summary-table">
        <thead>
          <tr>
            <th scope="col">Algorithm</th>
            <th scope="col" title="Mean final J over seeds ± half-width of its 95% t-interval">final J (95% CI)</th>
            <th scope="col" title="Seeds whose final J is within 0.01 of J*">at optimum</th>
            <th scope="col" title="Iterations where J dropped: breaks of monotonic improvement, total over seeds">violations</th>
            <th scope="col" title="Median over seeds of the first iteration 95% of the way from J₀ to J*">iterations to 95%</th>
          </tr>
        </thead>
        <tbody>
          {plan.algorithms.map((line, i) => (
            <Row key={line.id} line={line} seeds={result?.algorithms[i]?.runs.length ?? seeds} summary={result?.algorithms[i]?.summary ?? null} />
          ))}
        </tbody>
      </table>
      <p className="muted" data-testid="summary-note">
        {result
          ? `J* = ${result.Jstar.toFixed(3)} · ${seeds} seeds × ${result.iterations} iterations · finished in ${result.wallSeconds.toFixed(2)} s ${where(result)}.`
          : 'Press Run to fill the table.'}
      </p>
    </section>
  );
}
