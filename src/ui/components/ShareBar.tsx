import { useRef, useState } from 'react';
import { currentLink, hashUnavailable, importConfigFile, importEnvFile, useApp } from '../store';
import { ExportBar } from './ExportBar';
import './share.css';

/** Copy a permalink (optionally with the results hash), export results, import a config or environment. */
export function ShareBar() {
  const [withHash, setWithHash] = useState(false);
  // The link copied last and the experiment it was made for: once the experiment changes, the
  // link (and "Copied") no longer describe it, so they go.
  const [copied, setCopied] = useState<{ link: string | null; note: string; draft: unknown } | null>(null);
  const noHash = useApp(hashUnavailable);
  const draft = useApp((s) => s.draft);
  const tooLarge = useApp((s) => s.linkTooLarge);
  const configInput = useRef<HTMLInputElement>(null);
  const envInput = useRef<HTMLInputElement>(null);
  const copy = async () => {
    const made = currentLink(withHash && noHash === null);
    if (!made.ok) {
      setCopied({ link: null, note: `${made.message}.`, draft });
      return;
    }
    let note = 'Copied to the clipboard.';
    try {
      await navigator.clipboard.writeText(made.url);
    } catch {
      note = 'The browser refused the clipboard: copy the link from the box.';
    }
    setCopied({ link: made.url, note, draft });
  };
  const shown = copied && copied.draft === draft ? copied : null;
  const pick = (input: HTMLInputElement | null, load: (f: File) => Promise<void>) => {
    const file = input?.files?.[0];
    if (file) void load(file);
    if (input) input.value = '';
  };
  return (
    <section className="share card" aria-label="Share, export and import">
      <div className="share-row">
        <button type="button" data-testid="copy-link" onClick={copy}>
          Copy link
        </button>
        <label className="share-hash" title={noHash ?? 'The link proves the curves: opening it reruns the experiment and compares the digest'}>
          <input type="checkbox" data-testid="include-hash" checked={withHash && noHash === null} disabled={noHash !== null} onChange={(e) => setWithHash(e.target.checked)} />
          include the results hash{noHash ? ` (${noHash})` : ''}
        </label>
        <ExportBar />
        <button type="button" data-testid="import-config-button" onClick={() => configInput.current?.click()}>
          Import config…
        </button>
        <input ref={configInput} type="file" accept=".json,application/json" hidden data-testid="import-config" onChange={(e) => pick(e.currentTarget, importConfigFile)} />
        <button type="button" data-testid="import-env-button" onClick={() => envInput.current?.click()}>
          Import environment…
        </button>
        <input ref={envInput} type="file" accept=".json,application/json" hidden data-testid="import-env" onChange={(e) => pick(e.currentTarget, importEnvFile)} />
      </div>
      {shown?.link && (
        <p className="share-link-row">
          <input className="share-link" data-testid="share-link" readOnly value={shown.link} aria-label="Link to this experiment" onFocus={(e) => e.currentTarget.select()} />
          <span className="share-note" role="status" data-testid="share-note">{shown.note}</span>
        </p>
      )}
      {(tooLarge || (shown && !shown.link)) && (
        <p className="share-too-large" role="status" data-testid="link-too-large">
          {tooLarge ? `${tooLarge}. The address shows the page without it.` : shown!.note}
        </p>
      )}
    </section>
  );
}

/** The result of checking a link's results hash: "reproduced ✓" or why not. */
export function ReproduceStatus() {
  const r = useApp((s) => s.reproduce);
  if (!r) return null;
  return (
    <p className={`reproduce reproduce-${r.verdict}`} data-testid="reproduce-status" role="status">
      {r.text}
    </p>
  );
}
