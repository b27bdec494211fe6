// Part of benches/scale.sh: open an index in the wasm package (pkg/node) and time top-10 searches.
// Usage: node --expose-gc benches/scale.mjs INDEX.ggi QUESTIONS.jsonl LABEL
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const gg = require(path.join(root, 'pkg/node/groundgate.js'));
const [ggi, questions, label] = process.argv.slice(2);
const qs = readFileSync(questions, 'utf8').trim().split('\n').map((l) => JSON.parse(l).query);
const bytes = readFileSync(ggi);
// Compile and warm the module on a small index first, so that only this index's cost is measured.
new gg.Engine().addInstance('warm', readFileSync(path.join(root, 'indexes/constitution.ggi')));
global.gc();
const rss0 = process.memoryUsage().rss;
const e = new gg.Engine();
e.setClock(0);
const t0 = performance.now();
e.addInstance('rnd', bytes);
const open = performance.now() - t0;
global.gc();
const rss1 = process.memoryUsage().rss;
for (const q of qs.slice(0, 30)) e.search('rnd', q, 10);
const t = [];
for (const q of qs) {
  const a = performance.now();
  e.search('rnd', q, 10);
  t.push((performance.now() - a) * 1000);
}
t.sort((a, b) => a - b);
const mb = (x) => (x / 1048576).toFixed(1);
console.log(`wasm ${label}: ${e.info('rnd').chunks} chunks, file ${mb(bytes.length)} MB (gzip -6 ${mb(gzipSync(bytes).length)} MB), open ${open.toFixed(1)} ms, RSS +${mb(rss1 - rss0)} MB after loading, search p50 ${t[t.length >> 1].toFixed(0)} µs, p95 ${t[Math.round((t.length - 1) * 0.95)].toFixed(0)} µs`);
