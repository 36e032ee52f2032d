import { useState } from 'react';
import { encodeSweepLink } from '../../../core/sweep/link';
import { sweepCsv } from '../../../core/sweep/outcomes';
import type { SweepOutput } from '../../../core/sweep/document';
import { download, MIME, stamp } from '../../export/download';
import { pageBase } from '../../link-actions';
import { useApp } from '../../store';

// The sweep's numbers as files (CSV: one row per cell and algorithm; JSON: the document
// `seeupo-explorer sweep` prints for the same sweep) and the link that replays it.

export function SweepData() {
  const run = useApp((s) => s.sweep.run);
  const status = useApp((s) => s.sweep.status);
  const view = useApp((s) => s.sweep.view);
  const [note, setNote] = useState<string | null>(null);
  if (!run) return null;
  const present = run.cells.filter((c) => c !== undefined);
  // a cancelled (or failed) sweep keeps what it finished: its files say they are partial
  const available = status !== 'running' && present.length > 0;
  const partial = present.length < run.cells.length;
  const name = (ext: string) => `seeupo-sweep-${partial ? `partial-${present.length}-of-${run.cells.length}-` : ''}${stamp()}.${ext}`;
  const doc = (): SweepOutput | (SweepOutput & { partial: { cells: number; of: number } }) =>
    partial ? { version: 1, partial: { cells: present.length, of: run.cells.length }, axes: run.doc.axes, cells: present } : { version: 1, axes: run.doc.axes, cells: present };
  const why = available ? (partial ? ` (partial: ${present.length} of ${run.cells.length} cells)` : '') : ' (available when the sweep has stopped)';
  const copy = async () => {
    const link = encodeSweepLink(run.doc, view);
    if (!link.ok) return setNote(link.message);
    const url = `${pageBase()}#${link.fragment}`;
    try {
      await navigator.clipboard.writeText(url);
      setNote('Copied the sweep’s link: it opens this sweep’s settings (press Run sweep to compute it).');
    } catch {
      setNote(`The browser refused the clipboard; the link: ${url}`);
    }
  };
  return (
    <div className="sweep-data" data-export-ignore="">
      <button type="button" data-testid="sweep-export-csv" data-partial={partial ? 'true' : 'false'} disabled={!available} title={`One row per cell and algorithm${why}`}
        onClick={() => download(name('csv'), sweepCsv(doc()), MIME.csv)}>
        CSV
      </button>
      <button type="button" data-testid="sweep-export-json" data-partial={partial ? 'true' : 'false'} disabled={!available} title={`The document seeupo-explorer sweep prints for this sweep${why}`}
        onClick={() => download(name('json'), JSON.stringify(doc()) + '\n', MIME.json)}>
        JSON
      </button>
      <button type="button" data-testid="sweep-copy-link" onClick={() => void copy()}>
        Copy link
      </button>
      {note && (
        <span className="sweep-note" data-testid="sweep-link-note" role="status">
          {note}
        </span>
      )}
    </div>
  );
}
