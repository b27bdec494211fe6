// Byte-identical outputs of two builds of pkg/node: GG_OLD=dir/ (a previous build's pkg/node) against
// GG_NEW (default pkg/node), over the devset (GG_DATA/devset, default ../shared/data) and the
// training-set prompts (not overlap_heldout): ask (detailed with a session, short), search top 10
// per default index, tool search, and bad `k` / `setClock` / threshold arguments. `elapsed_ms`
// aside. Run: GG_OLD=/path/to/old/pkg/node node benches/parity.mjs (after ./build.sh).
import fs from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const root = new URL('..', import.meta.url).pathname;
const data = process.env.GG_DATA ?? `${root}../shared/data`;
// A pkg/web build (an ES module with initSync) loads from its text, so two builds with the same
// JavaScript stay two modules: GG_OLD=/path/to/old/pkg/web GG_NEW=pkg/web (no tools in that build:
// both sides then throw the same TypeError for callToolJson).
const load = async (dir) => {
  const js = `${dir}/groundgate.js`;
  if (!fs.readFileSync(js, 'utf8').includes('export function initSync') && !fs.readFileSync(js, 'utf8').includes('export { initSync')) return require(js);
  const src = fs.readFileSync(js, 'utf8') + `\n// ${dir}\n`;
  const M = await import(`data:text/javascript;base64,${Buffer.from(src).toString('base64')}`);
  M.initSync({ module: fs.readFileSync(`${dir}/groundgate_bg.wasm`) });
  return M;
};
const A = await load(process.env.GG_OLD);
const B = await load(process.env.GG_NEW ?? root + 'pkg/node');
const idx = ['rnd', 'constitution', 'lohelp', 'pyfaq'];
const mk = (M) => { const e = new M.Engine(); for (const n of idx) e.addInstance(n, fs.readFileSync(`${root}indexes/${n}.ggi`)); return e; };
const ea = mk(A), eb = mk(B);
const prompts = [];
for (const dir of [`${data}/devset`, `${root}benches/data/train`])
  for (const f of ['questions_ko.jsonl', 'questions_en.jsonl', 'sentences_ko.jsonl', 'unrelated.jsonl'])
    for (const l of fs.readFileSync(`${dir}/${f}`, 'utf8').split('\n')) if (l.trim()) prompts.push(JSON.parse(l).prompt);
const strip = (s) => s.replace(/"elapsed_ms":[0-9.]+/g, '');
let n = 0, bad = 0;
const cmp = (what, f) => {
  let a, b;
  try { a = f(ea, A); } catch (e) { a = 'ERR ' + e.code + ' ' + e.message; }
  try { b = f(eb, B); } catch (e) { b = 'ERR ' + e.code + ' ' + e.message; }
  n++; if (a !== b) { bad++; if (bad < 5) console.log('DIFF', what, '\n', a.slice(0, 400), '\n', b.slice(0, 400)); }
};
for (const p of prompts) {
  cmp('ask detailed ' + p, (e) => strip(e.askJson(p, { format: 'detailed', now_ms: 1000, session: 's1' })));
  cmp('ask short ' + p, (e) => strip(e.askJson(p, { now_ms: 1000 })));
  for (const i of idx) cmp('search ' + i + p, (e) => JSON.stringify(e.search(i, p, 10)));
  cmp('tool ' + p, (e) => e.callToolJson('search', JSON.stringify({ query: p })));
}
for (const k of [1.5, -1, 1e300, NaN, Infinity, 2 ** 40, 0.1 + 0.2, 5e-324])
  cmp('k ' + k, (e) => JSON.stringify(e.search('rnd', 'x', k)));
for (const ms of [-1.5, 1e300, 2 ** 53 + 2, -0.0001])
  cmp('clock ' + ms, (e) => { e.setClock(ms); return 'ok'; });
for (const t of [1.5, -0.25, 2 ** -12])
  cmp('threshold ' + t, (e, M) => { const x = new M.Engine(); x.addInstance('r', fs.readFileSync(`${root}indexes/rnd.ggi`), { sufficiency: t }); return 'ok'; });
cmp('bad json float', (e) => e.askJson('x', JSON.parse('{"format": 1.5}')));
console.log(`${prompts.length} prompts, ${n} comparisons, ${bad} differ`);
process.exit(bad ? 1 : 0);
