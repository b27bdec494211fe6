// Usage: GG_DATA=../shared/data node benches/search_builds.js DIR [DIR …] (after ./build.sh; e.g.
// `pkg/node` and an older build's pkg/node folder). `Engine.search(…, 10)` over the R&D FAQ
// questions on indexes/rnd.ggi and the first 2,000 LibreOffice keywords on indexes/lohelp.ggi, each
// build in its own Engine, two warm passes, then seven rounds alternating the builds in one process:
// the median per call of each round, the median of those, and its ratio to the first build's.
// Stops if a build's hits differ from the first build's (a speed change must not change a hit).
// docs/peer-bench.md, "Session 33".
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const data = process.env.GG_DATA || path.join(root, '../shared/data');
const dirs = process.argv.slice(2).map((d) => path.resolve(d));
if (dirs.length === 0) {
  console.error('usage: node benches/search_builds.js DIR [DIR …]   (each DIR holds groundgate.js)');
  process.exit(2);
}
const rnd = fs
  .readFileSync(path.join(data, 'registry/pypi-korean-rnd-regs-mcp-0.61.0/rnd_manual_faq_ko.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l).question);
const lohelp = fs
  .readFileSync(path.join(data, 'registry/deb-libreoffice-help-ko/queries.tsv'), 'utf8')
  .split('\n')
  .map((l) => l.split('\t'))
  .filter((f) => f[1] === '1' && f[2] && f[2].trim())
  .map((f) => f[2])
  .slice(0, 2000);
const median = (v) => v.slice().sort((a, b) => a - b)[v.length >> 1];
for (const [name, queries] of [['rnd', rnd], ['lohelp', lohelp]]) {
  const bytes = fs.readFileSync(path.join(root, `indexes/${name}.ggi`));
  const builds = dirs.map((d) => {
    const engine = new (require(path.join(d, 'groundgate.js')).Engine)();
    engine.addInstance(name, bytes);
    return { dir: d, engine, rounds: [] };
  });
  for (const b of builds) {
    const hits = [];
    for (let pass = 0; pass < 2; pass++) for (const q of queries) hits.push(JSON.stringify(b.engine.search(name, q, 10)));
    b.hits = hits.join('\n');
    if (b.hits !== builds[0].hits) throw new Error(`${b.dir}: hits differ from ${builds[0].dir}'s on ${name}`);
  }
  for (let round = 0; round < 7; round++) {
    for (const b of builds) {
      const times = [];
      for (const q of queries) {
        const t0 = process.hrtime.bigint();
        b.engine.search(name, q, 10);
        times.push(Number(process.hrtime.bigint() - t0) / 1000);
      }
      b.rounds.push(median(times));
    }
  }
  const first = median(builds[0].rounds);
  console.log(`${name}: Engine.search k 10, ${queries.length} queries, 7 alternating rounds (Node ${process.version})`);
  for (const b of builds) {
    const m = median(b.rounds);
    console.log(`  ${b.dir}: median ${m.toFixed(1)} µs, ratio ${(m / first).toFixed(3)}; rounds ${b.rounds.map((x) => x.toFixed(0)).join(' ')}`);
  }
}
console.log('same hits in every build: yes');
