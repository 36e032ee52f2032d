// The config fields a running experiment may change without restarting ("hot"): the learning
// rate and a clip. The page applies them live; a config (and so a permalink) records them as
// `changes` (run/changes.ts applies them). Defined once here for the schema, the engine and the page.

/** A concrete hot path: "optimizer.lr" or "algorithms[3].clip" (an algorithm's own lr is not hot). */
export const CHANGE_PATH = /^(optimizer\.lr|algorithms\[(\d{1,2})\]\.clip)$/;

/** True for a path the running experiment applies live; a change to any other restarts it. */
export function isHotPath(path: string): boolean {
  return CHANGE_PATH.test(path);
}

/** One change as a config states it: before computing iteration `at`, set `path` to `value`. */
export interface ScheduledChange {
  at: number;
  path: string;
  value: number;
}
