import { Header } from './components/Header';
import { ErrorBanner } from './components/ErrorBanner';
import { RunControls } from './components/RunControls';
import { ReturnChart } from './components/ReturnChart';
import { SummaryTable } from './components/SummaryTable';

export function App() {
  return (
    <main className="app">
      <Header />
      <ErrorBanner />
      <RunControls />
      <ReturnChart />
      <SummaryTable />
    </main>
  );
}
