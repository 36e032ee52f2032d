import type { Progress } from '../exec/cpu/run-experiment';

/** A progress bar on stderr when it is a terminal; silent otherwise. */
export function progressBar(stream: NodeJS.WriteStream, label: string): { update(p: Progress): void; end(): void } {
  if (!stream.isTTY) return { update() {}, end() {} };
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
