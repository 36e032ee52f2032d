// Milliseconds from an arbitrary origin, for the wall times a result reports (wallMs,
// wallSeconds). On Node, process.hrtime: the `performance` global loads Node's perf_hooks
// modules on first use, about a millisecond of every CLI run's start-up (docs/architecture.md
// "Start-up"); in a browser or a Web Worker, performance.now().
const hrtime = typeof process !== 'undefined' && typeof process.hrtime?.bigint === 'function' ? process.hrtime : null;

export const nowMs: () => number = hrtime
  ? () => {
      const t = hrtime(); // [s, ns]: no BigInt to make and convert, one read per run-iteration (cpu/shard.ts)
      return t[0] * 1e3 + t[1] / 1e6;
    }
  : () => performance.now();
