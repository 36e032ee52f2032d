// Milliseconds from an arbitrary origin, for the wall times a result reports (wallMs,
// wallSeconds). On Node, process.hrtime: the `performance` global loads Node's perf_hooks
// modules on first use, about a millisecond of every CLI run's start-up (docs/architecture.md
// "Start-up"); in a browser or a Web Worker, performance.now().
const hrtime = typeof process !== 'undefined' && typeof process.hrtime?.bigint === 'function' ? process.hrtime : null;

export const nowMs: () => number = hrtime ? () => Number(hrtime.bigint()) / 1e6 : () => performance.now();
