import { Fragment, useState, type ReactNode } from 'react';
import { buildTree, decodeSequence } from '../../../core/env/tree';
import { replaceDraft, setDraftValue, useApp } from '../../store';
import { customTableShape, MAX_EDITOR_CELLS, numberOrText, resizeRewards, setTurnRewards, turnTablesFit } from '../../draft';
import { envControls } from '../../controls/registry';
import { Field } from './Field';

// A custom environment's rewards: its sizes, the terminal table (one box per token sequence
// (rows) and context (columns)) and, when per-turn rewards are on, one table per turn t < T
// (one box per t-turn prefix and context), each box checked on its own. Tables past 512 cells
// are edited as config JSON.

/** Labels of the `turns`-turn token prefixes in lexicographic order: "01-2" (turns joined by "-"). */
function prefixLabels(vocab: number, turns: number, tokensPerTurn: number): string[] {
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
const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

interface CellProps {
  /** Config path of the cell: "env.rewards[0][3]", "env.turnRewards[0][1][2]". */
  path: string;
  /** Id of its message element. */
  errorId: string;
  ariaLabel: string;
  title: string;
  read: (env: Record<string, unknown> | undefined) => unknown;
}

function Cell({ path, errorId, ariaLabel, title, read }: CellProps) {
  const value = useApp((st) => read(st.draft.env as Record<string, unknown> | undefined));
  const error = useApp((st) => st.fieldErrors[path]);
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <td className={error ? 'reward-cell ctl-invalid' : 'reward-cell'}>
      <input type="text" inputMode="decimal" autoComplete="off" spellCheck={false} data-testid={`field-${path}`} name={path}
        aria-label={ariaLabel} title={title}
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

function TerminalCell({ x, s, label }: { x: number; s: number; label: string }) {
  return (
    <Cell path={`env.rewards[${x}][${s}]`} errorId={`reward-error-${x}-${s}`}
      ariaLabel={`reward of ${label} in context ${x}`} title={`Mean reward R̄ of token sequence ${label} in context ${x}: a finite number.`}
      read={(env) => listOf(listOf(env?.rewards)[x])[s]} />
  );
}

function TurnCell({ x, t, q, label }: { x: number; t: number; q: number; label: string }) {
  const turn = t + 1;
  return (
    <Cell path={`env.turnRewards[${x}][${t}][${q}]`} errorId={`turn-reward-error-${x}-${t}-${q}`}
      ariaLabel={`turn ${turn} reward of ${label} in context ${x}`}
      title={`Mean reward r_${turn} paid at the end of turn ${turn} after the prefix ${label} in context ${x}: a finite number.`}
      read={(env) => listOf(listOf(listOf(env?.turnRewards)[x])[t])[q]} />
  );
}

function Message({ path }: { path: string }) {
  const error = useApp((s) => s.fieldErrors[path]);
  if (!error) return null;
  return <p className="field-error" role="alert" data-testid={`error-${path}`}>{error}</p>;
}

/** One table: rows (token sequences or prefixes) × contexts; rows past the sizes' count are marked extra. */
function RewardGrid({ caption, testId, columns, rows, wanted, labels, cell }: {
  caption: string;
  testId?: string;
  /** Rows present per context. */
  columns: number[];
  rows: number;
  /** Rows the sizes ask for (null: sizes invalid). */
  wanted: number | null;
  labels: string[];
  cell: (x: number, r: number, label: string) => ReactNode;
}) {
  return (
    <div className="reward-scroll" data-testid={testId}>
      <table className="reward-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">tokens</th>
            {columns.map((_, x) => (
              <th scope="col" key={x}>context {x}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: rows }, (_, r) => {
            const label = labels[r] ?? `#${r}${wanted !== null && r >= wanted ? ' (extra)' : ''}`;
            return (
              <tr key={r}>
                <th scope="row">{label}</th>
                {columns.map((n, x) => (r < n ? <Fragment key={x}>{cell(x, r, label)}</Fragment> : <td key={x} />))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

type Draft = ReturnType<typeof useApp.getState>['draft'];

/** What the editor shows for a draft: the tables present, the sizes' shape, and whether they fit. */
function tablesOf(draft: Draft) {
  const env = draft.env as Record<string, unknown>;
  const rewards = listOf(env.rewards);
  const rows = rewards.map((r) => (Array.isArray(r) ? r.length : 0));
  const present = rows.reduce((a, b) => a + b, 0);
  const shape = customTableShape(draft);
  const turnOn = env.turnRewards !== undefined;
  const turnRewards = listOf(env.turnRewards);
  const terminalFits = shape !== null && rewards.length === shape.contexts && rows.every((n) => n === shape.sequences);
  const turnFits = !turnOn || (shape !== null && turnTablesFit(env.turnRewards, shape));
  const wanted = shape ? shape.contexts * shape.sequences : null;
  // per-turn tables as present: per turn index, the rows each context has
  const turnCount = Math.max(0, ...turnRewards.map((tables) => listOf(tables).length));
  const turnColumns = Array.from({ length: turnCount }, (_, t) => turnRewards.map((tables) => {
    const table = listOf(tables)[t];
    return Array.isArray(table) ? table.length : 0;
  }));
  const fits = terminalFits && turnFits;
  return {
    T: env.turns as number,
    V: env.vocab as number,
    L: env.tokensPerTurn as number,
    rewards, rows, present, shape, turnOn, turnRewards, terminalFits, fits, wanted, turnColumns,
    height: Math.max(0, ...rows),
    tooBig: present > MAX_EDITOR_CELLS || (wanted !== null && wanted > MAX_EDITOR_CELLS && !fits),
    turnPresent: turnColumns.flat().reduce((a, b) => a + b, 0),
  };
}
type Tables = ReturnType<typeof tablesOf>;

/** The sizes' need, and the button that rebuilds the tables at them (shown while they do not fit). */
function ResizeBar({ draft, t }: { draft: Draft; t: Tables }) {
  const [error, setError] = useState<string | null>(null);
  const { shape, turnOn } = t;
  const resize = () => {
    const r = resizeRewards(draft);
    setError(r.ok ? null : r.error);
    if (r.ok) replaceDraft(r.draft);
  };
  const need = shape
    ? `These sizes need ${shape.contexts} × ${shape.sequences.toLocaleString('en-US')} rewards (contexts × V^(T·L))` +
      (turnOn && shape.prefixes.length > 0 ? ` and per-turn tables of ${shape.prefixes.map((n) => n.toLocaleString('en-US')).join(', ')} rewards per context` : '')
    : '';
  return (
    <>
      {!t.fits && (
        <div className="reward-resize">
          <span>
            {shape
              ? t.terminalFits
                ? `${need}; the per-turn tables do not fit them.`
                : `${need}; the table has ${t.rewards.length} × ${t.height}.`
              : 'Set valid sizes to rebuild the table.'}
          </span>
          <button type="button" data-testid="resize-rewards" onClick={resize} disabled={!shape}
            title={`Rebuilds the table${turnOn ? ' and the per-turn tables' : ''} at the new sizes with every reward 0 (the current rewards are dropped).`}>
            {turnOn ? 'Resize tables (fill with zeros)' : 'Resize table (fill with zeros)'}
          </button>
        </div>
      )}
      {error && <p className="field-error" role="alert" data-testid="resize-error">{error}</p>}
    </>
  );
}

/** The per-turn rewards switch: on adds a table per turn t < T, off removes env.turnRewards. */
function TurnRewardsToggle({ draft, t }: { draft: Draft; t: Tables }) {
  const [error, setError] = useState<string | null>(null);
  const { shape, turnOn } = t;
  const canTurn = shape !== null && shape.prefixes.length > 0;
  const reason = !shape ? 'set valid sizes first' : !canTurn ? 'one turn: its only reward is the terminal table' : null;
  const toggle = (on: boolean) => {
    const r = setTurnRewards(draft, on);
    setError(r.ok ? null : r.error);
    if (r.ok) replaceDraft(r.draft);
  };
  return (
    <>
      <label className="turn-rewards-toggle" title={reason ?? 'Besides the terminal reward, a mean reward r_t paid at the end of every turn t < T, one table per turn indexed by the t-turn prefix (env.turnRewards; noise applies to the terminal reward only). Off: no per-turn rewards (the config has no env.turnRewards). A change restarts the experiment.'}>
        <input type="checkbox" data-testid="turn-rewards-toggle" checked={turnOn} disabled={!turnOn && reason !== null}
          onChange={(e) => toggle(e.target.checked)} />{' '}
        Per-turn rewards{turnOn ? '' : ' (off: only the whole episode is rewarded)'}
        {!turnOn && reason && <span className="muted"> — {reason}</span>}
      </label>
      {error && <p className="field-error" role="alert" data-testid="turn-rewards-error">{error}</p>}
    </>
  );
}

/** The messages about whole tables and rows (a cell's message sits beside its box). */
function TableMessages({ t }: { t: Tables }) {
  return (
    <>
      <Message path="env.rewards" />
      {t.rewards.map((_, x) => (
        <Message key={x} path={`env.rewards[${x}]`} />
      ))}
      {t.turnOn && <Message path="env.turnRewards" />}
      {t.turnRewards.map((tables, x) => (
        <Fragment key={x}>
          <Message path={`env.turnRewards[${x}]`} />
          {listOf(tables).map((_, k) => (
            <Message key={k} path={`env.turnRewards[${x}][${k}]`} />
          ))}
        </Fragment>
      ))}
    </>
  );
}

/** One grid per turn t < T, or a note when they are too big to edit here. */
function TurnTables({ t }: { t: Tables }) {
  if (!t.turnOn) return null;
  if (t.turnPresent > MAX_EDITOR_CELLS)
    return (
      <p className="muted" data-testid="turn-rewards-too-big">
        {`The per-turn tables have ${t.turnPresent.toLocaleString('en-US')} cells; the editor shows at most ${MAX_EDITOR_CELLS}. Edit them as config JSON, or resize.`}
      </p>
    );
  return (
    <>
      {t.turnColumns.map((columns, k) => {
        const n = t.shape?.prefixes[k];
        const prefixes = n !== undefined && n <= MAX_EDITOR_CELLS ? prefixLabels(t.V, k + 1, t.L) : [];
        const extra = t.shape !== null && n === undefined;
        return (
          <RewardGrid key={k} testId={`turn-table-${k}`} columns={columns} rows={Math.max(0, ...columns)} wanted={n ?? (t.shape ? 0 : null)} labels={prefixes}
            caption={`Turn ${k + 1} reward r${sub(k + 1)}, paid at the end of turn ${k + 1}, by ${k + 1}-turn prefix${extra ? ' (extra: these sizes have no such turn)' : ''}`}
            cell={(x, q, label) => <TurnCell x={x} t={k} q={q} label={label} />} />
        );
      })}
    </>
  );
}

/** The terminal table: one row per token sequence, one column per context. */
function TerminalTable({ t }: { t: Tables }) {
  if (t.present === 0) return null;
  const labels = t.shape && t.shape.sequences <= MAX_EDITOR_CELLS ? prefixLabels(t.V, t.T, t.L) : [];
  return (
    <RewardGrid columns={t.rows} rows={t.height} wanted={t.shape?.sequences ?? null} labels={labels}
      caption={t.turnOn ? `Terminal reward r${sub(Number.isInteger(t.T) ? t.T : 0)} (turn ${textOf(t.T)}), by token sequence` : 'Reward R̄, by token sequence'}
      cell={(x, s, label) => <TerminalCell x={x} s={s} label={label} />} />
  );
}

export function RewardTableEditor() {
  const draft = useApp((s) => s.draft);
  const t = tablesOf(draft);
  const sizeDefs = envControls(draft).filter((d) => ['env.turns', 'env.tokensPerTurn', 'env.vocab', 'env.contexts'].includes(d.path));
  return (
    <div className="reward-editor" data-testid="reward-editor">
      <div className="ctl-grid">
        {sizeDefs.map((d) => (
          <Field key={d.path} def={d} />
        ))}
      </div>
      <ResizeBar draft={draft} t={t} />
      <TurnRewardsToggle draft={draft} t={t} />
      <TableMessages t={t} />
      {t.tooBig ? (
        <p className="muted" data-testid="reward-editor-too-big">
          {t.present > MAX_EDITOR_CELLS
            ? `This table has ${t.present.toLocaleString('en-US')} cells; the editor shows at most ${MAX_EDITOR_CELLS}. Edit it as config JSON, or lower the sizes and resize.`
            : `These sizes need ${t.wanted!.toLocaleString('en-US')} cells; the editor builds tables of at most ${MAX_EDITOR_CELLS}.`}
        </p>
      ) : (
        <>
          <TurnTables t={t} />
          <TerminalTable t={t} />
        </>
      )}
    </div>
  );
}

/** "12" → "₁₂". */
function sub(n: number): string {
  return String(n).replace(/\d/g, (d) => '₀₁₂₃₄₅₆₇₈₉'[Number(d)]!);
}
