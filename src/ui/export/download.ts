// Save a file from the page: an <a download> on an object URL, revoked once the click has been handled.

export const MIME = {
  csv: 'text/csv;charset=utf-8',
  json: 'application/json',
  svg: 'image/svg+xml',
  png: 'image/png',
} as const;

export function download(filename: string, data: Blob | string, mime: string): void {
  const blob = typeof data === 'string' ? new Blob([data], { type: mime }) : data;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  try {
    a.click();
  } finally {
    a.remove();
    // the download has started from the click; revoke on a later task (some browsers read the URL after click() returns)
    setTimeout(() => URL.revokeObjectURL(url), 30_000);
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYYMMDD-HHMM in local time. */
export function stamp(d = new Date()): string {
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}`;
}

/** A file-name-safe word (the preset names and chart names already are). */
const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '') || 'x';

/** `seeupo-lock-20260312-1405.csv`: the environment preset (or "custom") and the local time. */
export function resultsFileName(envPreset: string | null, ext: 'csv' | 'json', d = new Date()): string {
  return `seeupo-${safe(envPreset ?? 'custom')}-${stamp(d)}.${ext}`;
}

/** `seeupo-return.png`. */
export function chartFileName(chart: string, ext: 'png' | 'svg'): string {
  return `seeupo-${safe(chart)}.${ext}`;
}
