import { X_AXES, type XAxis } from '../../live';
import { axisAvailable, AXIS_LABELS, effectiveAxis } from '../../charts/derive';
import { setXAxis, useApp } from '../../store';
import { GapChart } from './GapChart';
import { MetricChart } from './MetricChart';
import { ReturnChart } from './ReturnChart';
import { SeedMultiples } from './SeedMultiples';
import { TurnHeatmaps } from './TurnHeatmaps';
import './charts.css';

/** The x-axis picker: an axis this experiment cannot draw is disabled, with the reason as its title. */
function AxisPicker() {
  const plan = useApp((s) => s.plan);
  const xAxis = useApp((s) => s.xAxis);
  const shown = plan ? effectiveAxis(plan.exp, xAxis) : xAxis;
  return (
    <label className="chart-select">
      <span>X axis</span>
      <select data-testid="x-axis" aria-label="X axis" value={shown} onChange={(e) => setXAxis(e.target.value as XAxis)}>
        {X_AXES.map((x) => {
          const why = plan ? axisAvailable(plan.exp, x) : null;
          return (
            <option key={x} value={x} disabled={why !== null} title={why ?? undefined}>
              {AXIS_LABELS[x]}
            </option>
          );
        })}
      </select>
    </label>
  );
}

/** Every chart of the running (or finished) experiment, or how to start one. */
export function ChartsPanel() {
  const plan = useApp((s) => s.plan);
  const live = useApp((s) => s.live);
  if (!plan || !live)
    return (
      <section className="card charts-empty" data-testid="charts-empty">
        <p>Press Run to train; curves stream in as the workers compute.</p>
      </section>
    );
  return (
    <section className="charts" aria-label="Charts">
      <div className="charts-toolbar">
        <AxisPicker />
      </div>
      <ReturnChart />
      <div className="charts-pair">
        <GapChart />
        <MetricChart />
      </div>
      <SeedMultiples />
      <TurnHeatmaps />
    </section>
  );
}
