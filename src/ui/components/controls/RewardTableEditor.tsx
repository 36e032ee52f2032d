import { useState } from 'react';
import { buildTree, decodeSequence } from '../../../core/env/tree';
import { replaceDraft, setDraftValue, useApp } from '../../store';
import { customTableShape, MAX_EDITOR_CELLS, numberOrText, resizeRewards } from '../../draft';
import { envControls } from '../../controls/registry';
import { Field } from './Field';

// A custom environment's reward table: its sizes, and one box per token sequence (rows) and
// context (columns), each checked on its own. Tables past 512 cells are edited as config JSON.

function sequenceLabels(vocab: number, turns: number, tokensPerTurn: number): string[] {
  const tree = buildTree({ vocab, turns, tokensPerTurn });
  const tokens = new Int32Array(tree.N);
  const sep = vocab > 10 ? '.' : '';
  return Array.from({ length: tree.sequences }, (_, s) => {
    decodeSequence(tree, s, tokens);
    const turnsText: string[] = [];
    for (let t = 0; t < turns; t++) turnsText.push(Array.from(tokens.subarray(t * tokensPerTurn, (t + 1) * tokensPerTurn)).join(sep));
    return turnsText.join('-');
  });
}

const textOf = (v: unknown) => (v === undefined || v === null ? '' : String(v));

function Cell({ x, s, label }: { x: number; s: number; label: string }) {
  const path = `env.rewards[${x}][${s}]`;
  const value = useApp((st) => ((st.draft.env as { rewards?: unknown[][] } | undefined)?.rewards?.[x] as unknown[] | undefined)?.[s]);
  const error = useApp((st) => st.fieldErrors[path]);
  const [editing, setEditing] = useState<string | null>(null);
  const errorId = `reward-error-${x}-${s}`;
  return (
    <td className={error ? 'reward-cell ctl-invalid' : 'reward-cell'}>
      <input type="text" inputMode="decimal" autoComplete="off" spellCheck={false} data-testid={`field-${path}`} name={path}
        aria-label={`reward of ${label} in context ${x}`} title={`Mean reward R̄ of token sequence ${label} in context ${x}: a finite number.`}
        aria-invalid={error !== undefined} aria-describedby={error ? errorId : undefined}
        value={editing ?? textOf(value)}
        onChange={(e) => {
          setEditing(e.target.value);
          setDraftValue(path, numberOrText(e.target.value));
        }}
        onBlur={() => setEditing(null)} />
      {error && <span className="field-error" role="alert" id={errorId} data-testid={`error-${path}`}>{error}</span>}
    </td>
  );
}

function Message({ path }: { path: string }) {
  const error = useApp((s) => s.fieldErrors[path]);
  if (!error) return null;
  return <p className="field-error" role="alert" data-testid={`error-${path}`}>{error}</p>;
}

export function RewardTableEditor() {
  const draft = useApp((s) => s.draft);
  const [resizeError, setResizeError] = useState<string | null>(null);
  const env = draft.env as Record<string, unknown>;
  const sizeDefs = envControls(draft).filter((d) => ['env.turns', 'env.tokensPerTurn', 'env.vocab', 'env.contexts'].includes(d.path));
  const rewards = Array.isArray(env.rewards) ? (env.rewards as unknown[]) : [];
  const rows = rewards.map((r) => (Array.isArray(r) ? r.length : 0));
  const present = rows.reduce((a, b) => a + b, 0);
  const shape = customTableShape(draft);
  const fits = shape !== null && rewards.length === shape.contexts && rows.every((n) => n === shape.sequences);
  const wanted = shape ? shape.contexts * shape.sequences : null;
  const labels =
    shape && shape.sequences <= MAX_EDITOR_CELLS ? sequenceLabels(env.vocab as number, env.turns as number, env.tokensPerTurn as number) : [];
  const height = Math.max(0, ...rows);

  const resize = () => {
    const r = resizeRewards(draft);
    setResizeError(r.ok ? null : r.error);
    if (r.ok) replaceDraft(r.draft);
  };

  return (
    <div className="reward-editor" data-testid="reward-editor">
      <div className="ctl-grid">
        {sizeDefs.map((d) => (
          <Field key={d.path} def={d} />
        ))}
      </div>
      {!fits && (
        <div className="reward-resize">
          <span>
            {shape
              ? `These sizes need ${shape.contexts} × ${shape.sequences.toLocaleString('en-US')} rewards (contexts × V^(T·L)); the table has ${rewards.length} × ${height}.`
              : 'Set valid sizes to rebuild the table.'}
          </span>
          <button type="button" data-testid="resize-rewards" onClick={resize} disabled={!shape}
            title="Rebuilds the table at the new sizes with every reward 0 (the current rewards are dropped).">
            Resize table (fill with zeros)
          </button>
        </div>
      )}
      {resizeError && <p className="field-error" role="alert" data-testid="resize-error">{resizeError}</p>}
      <Message path="env.rewards" />
      {rewards.map((_, x) => (
        <Message key={x} path={`env.rewards[${x}]`} />
      ))}
      {present > MAX_EDITOR_CELLS || (wanted !== null && wanted > MAX_EDITOR_CELLS && !fits) ? (
        <p className="muted" data-testid="reward-editor-too-big">
          {present > MAX_EDITOR_CELLS
            ? `This table has ${present.toLocaleString('en-US')} cells; the editor shows at most ${MAX_EDITOR_CELLS}. Edit it as config JSON, or lower the sizes and resize.`
            : `These sizes need ${wanted!.toLocaleString('en-US')} cells; the editor builds tables of at most ${MAX_EDITOR_CELLS}.`}
        </p>
      ) : (
        present > 0 && (
          <div className="reward-scroll">
            <table className="reward-table">
              <thead>
                <tr>
                  <th scope="col">tokens</th>
                  {rewards.map((_, x) => (
                    <th scope="col" key={x}>context {x}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {Array.from({ length: height }, (_, s) => {
                  const label = labels[s] ?? `#${s}${shape && s >= shape.sequences ? ' (extra)' : ''}`;
                  return (
                    <tr key={s}>
                      <th scope="row">{label}</th>
                      {rewards.map((_, x) => (s < rows[x]! ? <Cell key={x} x={x} s={s} label={label} /> : <td key={x} />))}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )
      )}
    </div>
  );
}
