import { isValid, useApp } from '../store';
import { shareConfig } from '../share';
import { resultsCsvChunks } from '../export/csv';
import { resultsJson } from '../export/json';
import { download, MIME, resultsFileName } from '../export/download';
import { STORED_POINTS, storageStride } from '../../core/run/series';
import './export.css';

/** Why the results cannot be exported yet, or null. */
function blocked(hasLive: boolean, iteration: number): string | null {
  if (!hasLive) return 'No results yet: press Run or Step first';
  if (iteration === 0) return 'No results yet: no iteration has completed';
  return null;
}

function exportResults(kind: 'csv' | 'json'): void {
  const s = useApp.getState();
  if (!s.plan || !s.live || s.live.iteration <= 0) return;
  const name = resultsFileName(s.plan.exp.envPreset, kind);
  // the CSV goes to the Blob in chunks: a 4M-value export is ~200 MB of text, better not joined first
  if (kind === 'csv') download(name, new Blob(resultsCsvChunks(s.plan, s.live), { type: MIME.csv }), MIME.csv);
  else download(name, resultsJson(s.plan, s.live, { backend: s.backend, wallSeconds: s.elapsed }), MIME.json);
}

/**
 * The experiment's config (the CLI's input, what Import config reads): the one the run started
 * from with the changes made while it ran, or the draft before any run. Any size: the way to
 * pass on an experiment too large for a link.
 */
function exportConfig(): void {
  const s = useApp.getState();
  if (!isValid(s)) return;
  const { config } = shareConfig({ draft: s.draft, plan: s.plan, live: s.live, view: { metric: s.metric, x: s.xAxis }, embed: false });
  download(resultsFileName(s.plan?.exp.envPreset ?? null, 'json').replace(/\.json$/, '-config.json'), JSON.stringify(config, null, 1) + '\n', MIME.json);
}

/**
 * Save the results: CSV in long format (algorithm, seed, iteration, metric, value) for a
 * spreadsheet, or the CLI's result JSON with the config and the results hash. A partial run
 * exports what has been computed (the JSON says `"complete": false`).
 */
export function ExportBar() {
  const hasLive = useApp((s) => s.live !== null);
  const iteration = useApp((s) => s.iteration);
  const total = useApp((s) => s.total);
  const why = blocked(hasLive, iteration);
  const valid = useApp(isValid);
  const partial = why === null && iteration < total ? ` (iterations 0–${iteration} of ${total} so far)` : '';
  const every = storageStride(total);
  const thinned =
    every > 1
      ? `J at every iteration; the other metrics at every ${every}th and the last (the page keeps at most ${STORED_POINTS.toLocaleString('en-US')} per run; the CLI, run --link, gives every iteration)`
      : null;
  return (
    <div className="export-bar" role="group" aria-label="Export results">
      <button type="button" data-testid="export-csv" disabled={why !== null} onClick={() => exportResults('csv')}
        aria-label="Export the results as CSV" title={why ?? `Every metric of every run, one value per row (algorithm, seed, iteration, metric, value)${partial}`}>
        Export CSV
      </button>
      <button type="button" data-testid="export-json" disabled={why !== null} onClick={() => exportResults('json')}
        aria-label="Export the results as JSON" title={why ?? `The result JSON the CLI prints, with the config and the results hash${partial}`}>
        Export JSON
      </button>
      <button type="button" data-testid="export-config" disabled={!valid} onClick={exportConfig}
        aria-label="Export the experiment's config as JSON" title={valid ? 'The config JSON of this experiment: Import config (or the CLI) runs it again. For experiments too large for a link.' : 'Fix the settings first'}>
        Export config
      </button>
      {thinned && (
        <span className="export-note" data-testid="export-note">
          {thinned}
        </span>
      )}
    </div>
  );
}
