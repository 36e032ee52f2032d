import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { startUrlSync } from './ui/url-sync';
import { probeGpu } from './ui/gpu-probe';
import { cpuWorkers } from './worker/browser-session';
import './ui/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
startUrlSync();
void probeGpu();
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
// a CPU worker started (its code loaded and compiled) while the page is idle after its first
// render: the first Run starts without a worker's start-up (worker-pool.ts)
const whenIdle = globalThis.requestIdleCallback ?? ((f: () => void) => setTimeout(f, 200));
whenIdle(() => cpuWorkers.warm(1));
