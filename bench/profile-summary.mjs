// node bench/profile-summary.mjs FILE.cpuprofile [N] — self time of a `node --cpu-prof` profile:
// the N heaviest functions, and the total per category (GC, compile/other native, program, idle).
import { readFileSync } from 'node:fs';

const [file, nArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-summary.mjs FILE.cpuprofile [N]');
  process.exit(2);
}
const p = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = p.timeDeltas;
for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = (p.endTime - p.startTime) / 1000;
const fns = new Map();
const cats = new Map();
for (const [id, us] of self) {
  const cf = byId.get(id).callFrame;
  const where = cf.url ? cf.url.replace(/^.*\/(dist|src|node_modules)\//, '$1/') : '';
  const key = `${cf.functionName || '(anonymous)'} ${where}${cf.url ? ':' + (cf.lineNumber + 1) : ''}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
  const cat = cf.functionName === '(garbage collector)' ? 'GC' : cf.functionName === '(idle)' ? 'idle' : cf.functionName === '(program)' ? 'program (compile, start-up, native)' : cf.url.startsWith('node:') ? 'node internals' : cf.url ? 'JS' : 'native/other';
  cats.set(cat, (cats.get(cat) ?? 0) + us);
}
console.log(`${file}: ${total.toFixed(1)} ms profiled`);
for (const [c, us] of [...cats].sort((a, b) => b[1] - a[1])) console.log(`  ${(us / 1000).toFixed(1).padStart(8)} ms  ${c}`);
console.log('  heaviest functions (self time):');
for (const [k, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, Number(nArg ?? 15))) console.log(`  ${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
