import { useEffect, useState } from 'react';
import { addSweepAxis, removeSweepAxis, setSweepAxis, swapSweepAxes, useApp } from '../../store';
import { SUGGESTED_AXES, type SweepAxisDraft } from '../../sweep-state';

// The axes of a sweep: a config path (suggested ones, or any path typed in) and its values as
// comma-separated text, committed on Enter or when the field loses focus (every commit is checked
// in full by the sweep schema, which names a bad value).

const CUSTOM = '';

function AxisEditor({ i, axis, disabled }: { i: number; axis: SweepAxisDraft; disabled: boolean }) {
  const [path, setPath] = useState(axis.path);
  const [values, setValues] = useState(axis.values);
  useEffect(() => {
    setPath(axis.path);
    setValues(axis.values);
  }, [axis.path, axis.values]);
  const suggested = SUGGESTED_AXES.some((a) => a.path === axis.path);
  const commit = (next: SweepAxisDraft) => {
    if (next.path !== axis.path || next.values !== axis.values) setSweepAxis(i, next);
  };
  const pick = (p: string) => {
    if (p === CUSTOM) return commit({ path: '', values: '' });
    commit({ path: p, values: SUGGESTED_AXES.find((a) => a.path === p)?.values ?? values });
  };
  const enter = (e: React.KeyboardEvent) => {
    if (e.key === 'Enter') commit({ path, values });
  };
  const name = i === 0 ? 'x axis' : 'y axis';
  return (
    <fieldset className="sweep-axis" data-testid={`sweep-axis-${i}`} disabled={disabled}>
      <legend>{name}</legend>
      <label>
        setting{' '}
        <select data-testid={`sweep-axis-${i}-pick`} value={suggested ? axis.path : CUSTOM} onChange={(e) => pick(e.target.value)}>
          {SUGGESTED_AXES.map((a) => (
            <option key={a.path} value={a.path}>
              {a.path}
            </option>
          ))}
          <option value={CUSTOM}>another config path…</option>
        </select>
      </label>
      {!suggested && (
        <label>
          path{' '}
          <input type="text" data-testid={`sweep-axis-${i}-path`} value={path} placeholder="e.g. algorithms.1.clip" size={26} spellCheck={false}
            onChange={(e) => setPath(e.target.value)} onBlur={() => commit({ path, values })} onKeyDown={enter} />
        </label>
      )}
      <label className="sweep-values">
        values{' '}
        <input type="text" data-testid={`sweep-axis-${i}-values`} value={values} spellCheck={false} title="Comma-separated: numbers, or words such as none, group, batch"
          onChange={(e) => setValues(e.target.value)} onBlur={() => commit({ path, values })} onKeyDown={enter} />
      </label>
      {i === 1 && (
        <button type="button" className="link-button" data-testid="sweep-remove-axis" onClick={() => removeSweepAxis(1)}>
          remove
        </button>
      )}
    </fieldset>
  );
}

export function SweepAxes() {
  const axes = useApp((s) => s.sweep.axes);
  const running = useApp((s) => s.sweep.status === 'running');
  const other = SUGGESTED_AXES.find((a) => !axes.some((x) => x.path === a.path))!;
  return (
    <div className="sweep-axes">
      {axes.map((a, i) => (
        <AxisEditor key={i} i={i} axis={a} disabled={running} />
      ))}
      <div className="sweep-axes-buttons">
        {axes.length < 2 ? (
          <button type="button" data-testid="sweep-add-axis" disabled={running} onClick={() => addSweepAxis(other)}>
            + second axis
          </button>
        ) : (
          <button type="button" data-testid="sweep-swap-axes" disabled={running} onClick={swapSweepAxes} title="Exchange the x and y axes">
            ⇄ swap axes
          </button>
        )}
      </div>
    </div>
  );
}
