// Of jobs started one after another that finish later (a link opened from the history is loaded in
// a task after the one that decoded it), only the last started may finish: starting one makes
// every one before it stale, so a slow earlier job can never overwrite a later one's result.

export class LatestOnly {
  private started = 0;

  /** Start a job: the function returned says whether it is still the latest one started. */
  start(): () => boolean {
    const n = ++this.started;
    return () => n === this.started;
  }
}
