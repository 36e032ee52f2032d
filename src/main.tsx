import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { startUrlSync } from './ui/url-sync';
import { probeGpu } from './ui/gpu-probe';
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
