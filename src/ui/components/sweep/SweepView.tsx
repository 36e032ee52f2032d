import { useMemo } from 'react';
import { algorithmLabel } from '../../../core/algo/records';
import { resolveConfig } from '../../../core/config/resolve';
import { SWEEP_PRESETS } from '../../../core/sweep/presets';
import { OUTCOME_TEXT, outcomeDomain, SWEEP_OUTCOMES, type SweepOutcome } from '../../../core/sweep/outcomes';
import { CLAIM_NUMBERS, CLAIM_TEXT, type ClaimNumber } from '../../claims-text';
import { algorithmColor } from '../../palette';
import { cancelSweep, loadSweepPreset, runSweep, setSweepView, sweepBlocked, sweepDocOf, useApp } from '../../store';
import { sweepSizeText } from '../../sweep-text';
import { ChartExport } from '../charts/ChartExport';
import { SweepAxes } from './SweepAxes';
import { SweepData } from './SweepData';
import { SweepMap, SweepScale, type MapAlgorithm } from './SweepMaps';
import { SweepLines } from './SweepLines';
import { SweepProgress } from './SweepProgress';
import './sweep.css';

// The Sweep view: the explorer's experiment over a grid of one or two of its settings, run in Web
// Workers (batched as the CLI's `sweep` batches), drawn as a phase diagram per algorithm.

function Setup() {
  const draft = useApp((x) => x.draft);
  const plan = useApp((x) => x.plan);
  const fieldErrors = useApp((x) => x.fieldErrors);
  const configError = useApp((x) => x.configError);
  const sweep = useApp((x) => x.sweep);
  const s = { draft, plan, fieldErrors, configError, sweep };
  const status = s.sweep.status;
  const blocked = sweepBlocked(s);
  const d = sweepDocOf(s);
  const exp = s.plan?.exp;
  return (
    <section className="card sweep-setup" aria-labelledby="sweep-title">
      <h2 id="sweep-title">Sweep: where in settings space each algorithm converges</h2>
      <p className="muted">
        Runs the explorer’s experiment{exp ? ` (${s.plan?.envTitle ?? 'custom environment'}, ${exp.mode}, ${exp.algorithms.length} algorithms)` : ''} once per cell of a grid of one or two
        of its settings; every number is the one the cell gives when opened and run in the explorer. Change the base experiment in the Explorer tab.
      </p>
      <div className="sweep-presets">
        {SWEEP_PRESETS.map((p) => (
          <button key={p.id} type="button" data-testid={`sweep-preset-${p.id}`} title={p.note} disabled={status === 'running'} onClick={() => loadSweepPreset(p.id)}>
            {p.title}
          </button>
        ))}
      </div>
      <SweepAxes />
      {d.ok && exp && (
        <p className="sweep-size" data-testid="sweep-size">
          {sweepSizeText(d.doc.axes, exp.algorithms.length, exp.seedIndices.length, exp.iterations)}
        </p>
      )}
      {plan && (
        <p className="muted sweep-executor" data-testid="sweep-executor">
          {plan.choice.executor === 'cpu'
            ? 'Computed by the CPU executor in Web Workers: cells that differ only in algorithm fields or the learning rate run as one experiment’s runs (batched), each run with the random streams it has in its own cell.'
            : `Computed by the ${plan.choice.executor === 'webgpu' ? 'WebGPU' : 'tensor'} executor, one cell at a time in a Web Worker (${plan.choice.reason}).`}
        </p>
      )}
      {d.ok && s.sweep.run && status !== 'running' && JSON.stringify(d.doc) !== JSON.stringify(s.sweep.run.doc) && (
        <p className="sweep-stale" data-testid="sweep-stale">
          The maps below show the sweep as it ran; its axes or the explorer’s experiment have changed since. Run sweep to update them.
        </p>
      )}
      {(blocked || s.sweep.error) && (
        <p className="sweep-error" role="alert" data-testid="sweep-error">
          {s.sweep.error ?? blocked}
        </p>
      )}
      <div className="sweep-buttons">
        {status === 'running' ? (
          <button type="button" data-testid="sweep-cancel" onClick={cancelSweep}>
            ■ Cancel
          </button>
        ) : (
          <button type="button" className="primary" data-testid="sweep-run" disabled={blocked !== null} onClick={runSweep}>
            ▶ Run sweep
          </button>
        )}
        <SweepProgress />
      </div>
    </section>
  );
}

function Maps() {
  const run = useApp((s) => s.sweep.run);
  const status = useApp((s) => s.sweep.status);
  const view = useApp((s) => s.sweep.view);
  const algorithms = useMemo((): MapAlgorithm[] => {
    if (!run) return [];
    // named as in the base experiment: a cell's own label would carry its value of a swept field
    return resolveConfig(run.doc.base).algorithms.map((a) => ({ id: a.id, label: algorithmLabel(a), color: algorithmColor(a) }));
  }, [run?.doc]);
  if (!run)
    return (
      <section className="card sweep-maps" data-testid="sweep-empty">
        <p className="muted">Press ▶ Run sweep: the maps fill in here as the cells finish, one per algorithm.</p>
      </section>
    );
  const cells = run.cells;
  const present = cells.filter((c) => c !== undefined);
  const numeric = view.outcome === 'verdict' ? null : view.outcome;
  const domain = numeric ? outcomeDomain(present, numeric, algorithms.map((a) => a.id)) : ([0, 1] as [number, number]);
  const axes = run.doc.axes;
  return (
    <section className="card chart sweep-maps" data-testid="sweep-maps" data-cells={present.length}>
      <div className="chart-head">
        <h2>
          {view.outcome === 'verdict' ? `Claim ${view.claim} per cell (${CLAIM_TEXT[view.claim as ClaimNumber].short})` : `${OUTCOME_TEXT[view.outcome].label} per cell`}
          {status !== 'running' && present.length < cells.length && (
            <span className="sweep-partial" data-testid="sweep-partial">
              {' '}— partial: {present.length} of {cells.length} cells
            </span>
          )}
        </h2>
        <ChartExport chart="sweep" />
      </div>
      <div className="sweep-view-controls" data-export-ignore="">
        <label>
          colour by{' '}
          <select data-testid="sweep-outcome" value={view.outcome} onChange={(e) => setSweepView({ outcome: e.target.value as SweepOutcome })}>
            {SWEEP_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {OUTCOME_TEXT[o].label}
              </option>
            ))}
          </select>
        </label>
        {view.outcome === 'verdict' && (
          <label>
            claim{' '}
            <select data-testid="sweep-claim" value={view.claim} onChange={(e) => setSweepView({ claim: Number(e.target.value) })}>
              {CLAIM_NUMBERS.map((n) => (
                <option key={n} value={n}>
                  {n}: {CLAIM_TEXT[n].short}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <p className="muted">{OUTCOME_TEXT[view.outcome].note}. Click a cell to open it in the explorer.</p>
      {axes.length === 1 && numeric ? (
        <SweepLines axis={axes[0]!} axes={axes} cells={cells} algorithms={algorithms} outcome={numeric} domain={domain} claim={view.claim} />
      ) : (
        <div className="sweep-multiples">
          {algorithms.map((a) => (
            <SweepMap key={a.id} axes={axes} cells={cells} algo={a} outcome={view.outcome} claim={view.claim} domain={domain} />
          ))}
        </div>
      )}
      {!(axes.length === 1 && numeric) && <SweepScale outcome={view.outcome} domain={domain} label={OUTCOME_TEXT[view.outcome].label} />}
      {axes.length === 1 && numeric && (
        <div className="sweep-legend">
          {algorithms.map((a) => (
            <span key={a.id} className="sweep-key">
              <span className="swatch" style={{ background: a.color }} aria-hidden="true" /> {a.label}
            </span>
          ))}
        </div>
      )}
      <SweepData />
    </section>
  );
}

export function SweepView() {
  return (
    <main className="main sweep-view" data-testid="sweep-view">
      <Setup />
      <Maps />
    </main>
  );
}
