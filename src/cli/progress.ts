import { fstatSync } from 'node:fs';
import type { Progress } from '../exec/cpu/run-experiment';

/**
 * Whether stderr is a terminal, without making process.stderr when it is a pipe or a file: the
 * stream's classes (net, stream) are a cost a short run's start-up would pay for nothing
 * (docs/architecture.md "Start-up"). A terminal is a character device; only those are asked.
 */
export function stderrIsTerminal(): boolean {
  try {
    if (!fstatSync(2).isCharacterDevice()) return false;
  } catch {
    return false; // no stderr at all
  }
  return process.stderr.isTTY === true;
}

/** A progress bar on stderr when it is a terminal; silent otherwise. */
export function progressBar(label: string): { update(p: Progress): void; end(): void } {
  if (!stderrIsTerminal()) return { update() {}, end() {} };
  const stream = process.stderr;
  const t0 = performance.now();
  let last = -1;
  return {
    update(p) {
      if (p.iteration === last) return;
      last = p.iteration;
      const width = 30;
      const f = p.total ? p.iteration / p.total : 1;
      const bar = '█'.repeat(Math.round(f * width)).padEnd(width, '░');
      const s = ((performance.now() - t0) / 1000).toFixed(1);
      stream.write(`\r${label} ${bar} ${p.iteration}/${p.total} iterations  ${s}s`);
    },
    end() {
      stream.write('\n');
    },
  };
}
