/// <reference lib="webworker" />
// Web Worker entry: a session over one share of an experiment's runs on the CPU executor.
import { makeCpuSteppable } from './cpu-session';
import { serveSession } from './serve';

serveSession(self as unknown as DedicatedWorkerGlobalScope, makeCpuSteppable);
