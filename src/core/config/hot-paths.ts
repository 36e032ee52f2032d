// The config fields a running experiment may change without restarting ("hot"): the learning
// rate and a clip. The page applies them live; a config (and so a permalink) records them as
// `changes` (run/changes.ts applies them). Defined once here for the schema, the engine and the page.

/** Hot fields, as the page's control paths write them ("i" for any algorithm index). */
export const HOT_PATHS = ['optimizer.lr', 'algorithms[i].clip'] as const;

/** A concrete hot path: "optimizer.lr" or "algorithms[3].clip". */
export const CHANGE_PATH = /^(optimizer\.lr|algorithms\[(\d{1,2})\]\.clip)$/;

/** One change as a config states it: before computing iteration `at`, set `path` to `value`. */
export interface ScheduledChange {
  at: number;
  path: string;
  value: number;
}
