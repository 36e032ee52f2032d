/// <reference lib="webworker" />
// Web Worker entry: a session over every run of an experiment on the WebGPU executor (WGSL).
import { serveSession } from './serve';
import { makeWebGpuSteppable } from './webgpu-session';

serveSession(self as unknown as DedicatedWorkerGlobalScope, makeWebGpuSteppable);
