import { fieldsRead, type AlgorithmRecord } from '../../core/algo/records';
import { NORMALIZATIONS, TURN_ORDERS } from '../../core/options';
import { OPTIMIZER_CONTROLS } from '../controls/registry';
import { AxisPicker } from './charts/ChartsPanel';
import { algorithmsOf } from '../draft-edits';
import { replaceDraft, resetRun, setDraftValue, startRun, useApp } from '../store';

// One-click switches above the charts: normalization and turn order for every
// algorithm that reads them, rerun at once; the learning rate on a log slider (applied live).
// The options come from src/core/options.ts; the slider's range from the registry's lr control.

type Field = 'normalization' | 'order';

const LABELS: Record<string, string> = {
  none: 'none', group: 'group', batch: 'batch',
  reverse: 'reverse', forward: 'forward', random: 'random',
};

/** The value every concerned algorithm has, 'mixed' when they differ, null when none reads the field. */
function shared(records: readonly AlgorithmRecord[], field: Field): string | null {
  const values = new Set(records.filter((r) => fieldsRead(r).has(field)).map((r) => r[field]));
  if (values.size === 0) return null;
  return values.size === 1 ? [...values][0]! : 'mixed';
}

/** Set `field` on every algorithm entry whose rule reads it, and run the experiment again from iteration 0. */
function applyToAll(field: Field, value: string): void {
  const s = useApp.getState();
  if (!s.plan) return;
  const records = s.plan.exp.algorithms;
  const list = algorithmsOf(s.draft).map((entry, i) =>
    records[i] && fieldsRead(records[i]).has(field) && typeof entry === 'object' && entry !== null ? { ...entry, [field]: value } : entry,
  );
  replaceDraft({ ...s.draft, algorithms: list });
  const after = useApp.getState();
  if (!after.plan || after.status === 'running') return; // invalid, or already restarted by replaceDraft
  resetRun();
  startRun();
}

function Segmented({ field, title, options, testId }: { field: Field; title: string; options: readonly string[]; testId: string }) {
  const records = useApp((s) => s.plan?.exp.algorithms ?? null);
  const current = records ? shared(records, field) : null;
  const disabled = current === null;
  const concerned = records ? records.filter((r) => fieldsRead(r).has(field)).length : 0;
  return (
    <div className="quick-group" role="radiogroup" aria-label={title} data-testid={testId} data-value={current ?? ''}
      title={disabled ? `No algorithm of this experiment reads ${field}` : `Sets ${field} of ${concerned} algorithm${concerned === 1 ? '' : 's'} and runs again`}>
      <span className="quick-title">{title}</span>
      {options.map((v) => (
        <button key={v} type="button" role="radio" aria-checked={current === v} disabled={disabled} data-value={v}
          className={`quick-option${current === v ? ' on' : ''}`} onClick={() => applyToAll(field, v)}>
          {LABELS[v] ?? v}
        </button>
      ))}
      {current === 'mixed' && <span className="quick-mixed" title={`The algorithms differ in ${field}: a click sets them all`}>mixed</span>}
    </div>
  );
}

const LR = OPTIMIZER_CONTROLS.find((c) => c.path === 'optimizer.lr')!;

/**
 * The slider's learning rate: applied live while the experiment runs (a hot change); after a
 * finished run the experiment runs again from iteration 0 with it, so the new curves show at once.
 */
function setRate(lr: number): void {
  const finished = useApp.getState().status === 'done';
  setDraftValue('optimizer.lr', lr);
  const after = useApp.getState();
  if (finished && after.plan && after.status === 'idle') startRun();
}

function LearningRate() {
  const lr = useApp((s) => s.plan?.exp.optimizer.lr ?? null);
  const slider = LR.slider!;
  const shown = lr ?? NaN;
  return (
    <label className="quick-group quick-lr" title={LR.help}>
      <span className="quick-title">learning rate</span>
      <input type="range" data-testid="quick-lr" aria-label="learning rate (log scale)" min={slider.min} max={slider.max} step={slider.step}
        value={Number.isFinite(shown) && shown > 0 ? Math.min(slider.max, Math.max(slider.min, Math.log10(shown))) : slider.min}
        aria-valuetext={`learning rate ${lr ?? '—'}`} disabled={lr === null}
        onChange={(e) => setRate(Number(Math.pow(10, Number(e.currentTarget.value)).toPrecision(2)))} />
      <output data-testid="quick-lr-value">{lr ?? '—'}</output>
    </label>
  );
}

/** Normalization, turn order and learning rate, one click each. */
export function QuickSwitches() {
  return (
    <section className="quick-switches card" aria-label="Quick switches">
      <Segmented field="normalization" title="normalization" options={NORMALIZATIONS} testId="quick-normalization" />
      <Segmented field="order" title="turn order" options={TURN_ORDERS} testId="quick-order" />
      <LearningRate />
      <AxisPicker />
    </section>
  );
}
