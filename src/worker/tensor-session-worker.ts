/// <reference lib="webworker" />
// Web Worker entry: a session over every run of an experiment on the tensor executor (tfjs).
import { browserBackend } from '../exec/tensor/register-browser';
import { serveSession } from './serve';
import { makeTensorSteppable } from './tensor-session';

serveSession(self as unknown as DedicatedWorkerGlobalScope, makeTensorSteppable(browserBackend));
