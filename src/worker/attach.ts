/**
 * Wire a Web Worker to `onMessage` until a final message (per `isFinal`) or an error, then
 * terminate it; worker failures arrive as `{type: 'error'}` messages. Posts `req` to start it.
 */
export function attachWorker<M extends { type: string }>(worker: Worker, what: string, req: unknown, isFinal: (m: M) => boolean, onMessage: (m: M) => void): { cancel(): void } {
  let open = true;
  const stop = () => {
    open = false;
    worker.terminate();
  };
  const fail = (message: string) => {
    if (!open) return;
    stop();
    onMessage({ type: 'error', message } as unknown as M);
  };
  worker.onmessage = (e: MessageEvent<M>) => {
    if (!open) return;
    if (isFinal(e.data)) stop();
    onMessage(e.data);
  };
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    fail(`${what} failed: ${e.message || 'it could not be started'}`);
  };
  worker.onmessageerror = () => fail(`${what} sent a message that could not be read`);
  worker.postMessage(req);
  return { cancel: stop };
}
