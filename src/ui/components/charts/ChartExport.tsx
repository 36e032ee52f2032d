import { memo, useRef, useState } from 'react';
import { chartPng, chartSvg } from '../../export/chart-image';
import { chartFileName, download, MIME } from '../../export/download';
import '../export.css';

export type ChartName = 'return' | 'gap' | 'metric' | 'seeds' | 'heatmap' | 'sweep' | 'tree';

const TITLES: Record<ChartName, string> = {
  return: 'mean return chart',
  gap: 'gap chart',
  metric: 'metric chart',
  seeds: 'seed charts',
  heatmap: 'credit-by-turn heatmaps',
  sweep: 'sweep maps',
  tree: 'policy tree',
};

/** The file's name: the metric chart says which metric it shows. */
function fileStem(chart: ChartName, card: Element): string {
  const metric = chart === 'metric' ? card.getAttribute('data-metric') : null;
  return metric ? `${chart}-${metric}` : chart;
}

/**
 * PNG and SVG buttons for the chart card they sit in. They take no data: a click reads the card
 * from the page, so they never re-render while the chart redraws (memo, constant props).
 */
export const ChartExport = memo(function ChartExport({ chart }: { chart: ChartName }) {
  const ref = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const card = () => ref.current?.closest('.chart') ?? null;
  const save = async (ext: 'png' | 'svg') => {
    const c = card();
    if (!c) return;
    setError(null);
    try {
      if (ext === 'svg') download(chartFileName(fileStem(chart, c), 'svg'), chartSvg(c), MIME.svg);
      else {
        setBusy(true);
        download(chartFileName(fileStem(chart, c), 'png'), await chartPng(c), MIME.png);
      }
    } catch (e) {
      setError(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="chart-export" ref={ref} data-export-ignore="" role="group" aria-label={`Save the ${TITLES[chart]} as an image`}>
      <button type="button" className="export-button" data-testid={`export-png-${chart}`} disabled={busy}
        aria-label={`Save the ${TITLES[chart]} as PNG`} title={`Save the ${TITLES[chart]} as a PNG image`} onClick={() => void save('png')}>
        PNG
      </button>
      <button type="button" className="export-button" data-testid={`export-svg-${chart}`}
        aria-label={`Save the ${TITLES[chart]} as SVG`} title={`Save the ${TITLES[chart]} as an SVG image (vector)`} onClick={() => void save('svg')}>
        SVG
      </button>
      {error ? <span className="export-error" role="alert">{error}</span> : null}
    </div>
  );
});
