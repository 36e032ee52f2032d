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
  const complete = status === 'done' && run.cells.every((c) => c !== undefined);
  const doc = (): SweepOutput => ({ version: 1, axes: run.doc.axes, cells: run.cells.filter((c) => c !== undefined) });
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
      <button type="button" data-testid="sweep-export-csv" disabled={!complete} title={complete ? 'One row per cell and algorithm' : 'Available when the sweep has finished'}
        onClick={() => download(`seeupo-sweep-${stamp()}.csv`, sweepCsv(doc()), MIME.csv)}>
        CSV
      </button>
      <button type="button" data-testid="sweep-export-json" disabled={!complete} title={complete ? 'The document seeupo-explorer sweep prints for this sweep' : 'Available when the sweep has finished'}
        onClick={() => download(`seeupo-sweep-${stamp()}.json`, JSON.stringify(doc()) + '\n', MIME.json)}>
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
