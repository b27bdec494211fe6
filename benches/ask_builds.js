// Usage: node benches/ask_builds.js DIR [DIR …] (after ./build.sh; e.g. `pkg/node` and an older
// build's pkg/node folder). `askJson` over the four default indexes for every held-out prompt
// (benches/data/heldout), each build in its own Engine, eight rounds alternating the builds in one
// process: the median per call of each round, the median of those, and its ratio to the first
// build's. Stops if a build's answers differ from round to round or from the first build's (a
// speed change must not change an answer). docs/peer-bench.md, "Session 25".
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const dirs = process.argv.slice(2).map((d) => path.resolve(d));
if (dirs.length === 0) {
  console.error('usage: node benches/ask_builds.js DIR [DIR …]   (each DIR holds groundgate.js)');
  process.exit(2);
}
const heldout = path.join(root, 'benches/data/heldout');
const prompts = fs
  .readdirSync(heldout)
  .filter((f) => f.endsWith('.jsonl'))
  .sort()
  .flatMap((f) => fs.readFileSync(path.join(heldout, f), 'utf8').split('\n').filter(Boolean))
  .map((l) => JSON.parse(l).prompt);
const indexes = ['rnd', 'constitution', 'lohelp', 'pyfaq'].map((n) => [n, fs.readFileSync(path.join(root, `indexes/${n}.ggi`))]);
const builds = dirs.map((d) => {
  const gg = require(path.join(d, 'groundgate.js'));
  const engine = new gg.Engine();
  for (const [name, bytes] of indexes) engine.addInstance(name, bytes);
  engine.setClock(0);
  return { dir: d, engine, rounds: [], answers: undefined };
});
const median = (v) => v.slice().sort((a, b) => a - b)[v.length >> 1];
for (let round = 0; round < 8; round++) {
  for (const b of builds) {
    const times = [];
    const answers = [];
    for (const p of prompts) {
      const t0 = process.hrtime.bigint();
      answers.push(b.engine.askJson(p));
      times.push(Number(process.hrtime.bigint() - t0) / 1000);
    }
    b.rounds.push(median(times));
    const all = answers.join('\n');
    if (b.answers === undefined) b.answers = all;
    if (b.answers !== all) throw new Error(`${b.dir}: answers changed between rounds`);
    if (all !== builds[0].answers && builds[0].answers !== undefined) throw new Error(`${b.dir}: answers differ from ${builds[0].dir}'s`);
  }
}
const first = median(builds[0].rounds);
console.log(`ask over 4 instances, ${prompts.length} held-out prompts, 8 alternating rounds (Node ${process.version})`);
for (const b of builds) {
  const m = median(b.rounds);
  console.log(`${b.dir}: median ${m.toFixed(1)} µs, ratio ${(m / first).toFixed(3)}; rounds ${b.rounds.map((x) => x.toFixed(0)).join(' ')}`);
}
console.log('same answers in every build: yes');
