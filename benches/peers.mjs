// Peer bench: groundgate (wasm, pkg/node) against MiniSearch, Orama, Lunr and Pagefind on the same
// documents, in one Node process. Run by `./build.sh bench` (needs ../shared/data for the questions).
//
// Documents: the chunks of indexes/rnd.ggi (the R&D manuals) and indexes/lohelp.ggi (the LibreOffice
// Korean help pages), exported with `groundgate chunks`, so every engine indexes exactly the same
// texts with the same citations stored. Questions with gold locations:
//   R&D manuals — the 343 R&D FAQ questions; gold = a chunk of the answer's manual on a printed page
//     of the answer's section that carries the question (as benches/ask.rs);
//   LibreOffice — the 3,990 Korean index keywords; gold = a chunk of the keyword's help page.
// groundgate runs on the shipped index, and with GG_PREV=dir also the previous release (its wasm
// module and its indexes, e.g. format v2) for an old-vs-new comparison in the same process. Per engine and document set: index bytes (raw, gzip -9; with the chunk text and citations a host
// needs to show evidence), build time, open time (bytes → searchable), the first query after open,
// per-query search time (median, p95; top 10), a budgeted "ask" (groundgate: the full pipeline; a
// peer: its top 4 hits cut to 1,800 characters, the same budget), Hit@4 and MRR@10. Then the native
// CLI on the same queries (`--timings`), and Pagefind's output folder for the LibreOffice HTML.
//
// Peers run with their default settings, plus a variant with a Hangul-bigram tokenizer (the usual
// fix for Korean): MiniSearch's default tokenizer keeps Korean words whole (particles attached);
// Orama's default tokenizer drops Hangul altogether (its English splitter), so Orama gets the same
// word tokenizer as MiniSearch; Lunr runs with lunr-languages' Korean support.
import { readFileSync, writeFileSync, existsSync, readdirSync, statSync, mkdirSync, rmSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const data = process.env.GG_DATA || path.resolve(root, '../shared/data');
const require = createRequire(import.meta.url);
const gg = require(process.env.GG_PKG || path.join(root, 'pkg/node/groundgate.js'));
const MiniSearch = require('minisearch');
const orama = require('@orama/orama');
const lunr = require('lunr');
require('lunr-languages/lunr.stemmer.support')(lunr);
require('lunr-languages/lunr.ko')(lunr);
const cli = path.join(root, 'target/release/groundgate');
const out = path.join(root, 'target/peers');
mkdirSync(out, { recursive: true });

const BUDGET = 1800;
const FIELDS = ['source', 'title', 'page', 'article', 'section', 'heading', 'date', 'link', 'text'];

// ---------------------------------------------------------------- documents and questions

function jsonl(p) {
  return readFileSync(p, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

function chunks(ggi) {
  const text = execFileSync(cli, ['chunks', '--index', ggi], { maxBuffer: 1 << 30 }).toString();
  return text.trim().split('\n').map((l) => JSON.parse(l));
}

const squash = (s) => s.replace(/\s+/gu, '');

function rndQuestions() {
  const dir = path.join(data, 'registry/pypi-korean-rnd-regs-mcp-0.61.0');
  const manuals = new Map();
  return jsonl(path.join(dir, 'rnd_manual_faq_ko.jsonl')).map((o) => {
    if (!manuals.has(o.source)) manuals.set(o.source, JSON.parse(readFileSync(path.join(dir, `${o.source}.json`), 'utf8')));
    const section = (manuals.get(o.source).sections || []).find((s) => s.id === o.section);
    const pages = section?.pages || [];
    const key = [...squash(o.question)].slice(0, 24).join('');
    let gold = pages.filter((p) => squash(p.text || '').includes(key)).map((p) => p.printed_page);
    if (gold.length === 0) gold = pages.map((p) => p.printed_page);
    return { query: o.question, relevant: (c) => c.source === o.source && gold.includes(c.page) };
  });
}

function loQuestions() {
  const dir = path.join(data, 'registry/deb-libreoffice-help-ko');
  const qrels = new Map();
  for (const l of readFileSync(path.join(dir, 'qrels.tsv'), 'utf8').trim().split('\n')) {
    const f = l.split('\t');
    if (!qrels.has(f[0])) qrels.set(f[0], new Set());
    qrels.get(f[0]).add(f[2]);
  }
  return readFileSync(path.join(dir, 'queries.tsv'), 'utf8').trim().split('\n')
    .map((l) => l.split('\t')).filter((f) => f[1] === '1' && qrels.has(f[0]))
    .map((f) => ({ query: f[2], relevant: (c) => qrels.get(f[0]).has(c.source) }));
}

// ---------------------------------------------------------------- tokenizers for the peers

const WORD = /[\n\r\p{Z}\p{P}\p{S}]+/u; // MiniSearch's default split, symbols added
const HANGUL = /\p{Script=Hangul}/u;

function words(text) {
  return text.split(WORD).filter(Boolean).map((w) => w.toLowerCase());
}

// Hangul runs → overlapping character bigrams (a one-syllable run stays whole); other words as is.
function bigrams(text) {
  const outTokens = [];
  for (const w of words(text)) {
    if (!HANGUL.test(w)) { outTokens.push(w); continue; }
    const chars = [...w];
    if (chars.length === 1) outTokens.push(w);
    for (let i = 0; i + 1 < chars.length; i++) outTokens.push(chars[i] + chars[i + 1]);
  }
  return outTokens;
}

// ---------------------------------------------------------------- engines

const gz = (s) => gzipSync(typeof s === 'string' ? Buffer.from(s) : s, { level: 9 }).length;

function groundgate(set, ggi, label, lib = gg) {
  const bytes = readFileSync(ggi);
  let engine;
  return {
    name: label,
    build: () => bytes,
    bytes: () => bytes,
    open: () => {
      // ask as the peers' rows are cut: top 4 in 1,800 characters (the field report's settings;
      // the default since session 3 is up to 8 hits in 3,600). A build before evidence_k refuses
      // the key, and used those settings anyway.
      try {
        engine = new lib.Engine({ evidence_k: 4, instance_budget: 1800 });
      } catch {
        engine = new lib.Engine();
      }
      engine.setClock(0);
      engine.addInstance(set.name, bytes);
    },
    search: (q, k) => engine.search(set.name, q, k).map((h) => h.chunk),
    ask: (q) => engine.ask(q),
  };
}

function minisearch(tokenize, label) {
  const opts = { fields: ['text'], storeFields: FIELDS, idField: 'chunk', ...(tokenize ? { tokenize } : {}) };
  let ms;
  let json;
  return {
    name: label,
    build: (docs) => {
      const m = new MiniSearch(opts);
      m.addAll(docs);
      json = JSON.stringify(m);
    },
    bytes: () => json,
    open: () => { ms = MiniSearch.loadJSON(json, opts); },
    search: (q, k) => ms.search(q).slice(0, k).map((r) => r.id),
    ask: (q) => context(ms.search(q).slice(0, 4)),
  };
}

function oramaEngine(tokenize, label) {
  const schema = { text: 'string', source: 'string', title: 'string', heading: 'string', link: 'string' };
  const make = () => orama.create({
    schema,
    components: { tokenizer: { language: 'english', normalizationCache: new Map(), tokenize: (raw) => tokenize(raw) } },
  });
  let db;
  let json;
  return {
    name: label,
    build: (docs) => {
      const d = make();
      orama.insertMultiple(d, docs.map((c) => ({
        id: String(c.chunk), text: c.text, source: c.source, title: c.title, heading: c.heading ?? '',
        link: c.link ?? '', page: c.page, article: c.article, section: c.section, date: c.date,
      })));
      json = JSON.stringify(orama.save(d));
    },
    bytes: () => json,
    open: () => { db = make(); orama.load(db, JSON.parse(json)); },
    search: (q, k) => orama.search(db, { term: q, properties: ['text'], limit: k }).hits.map((h) => Number(h.id)),
    ask: (q) => context(orama.search(db, { term: q, properties: ['text'], limit: 4 }).hits.map((h) => h.document)),
  };
}

function lunrEngine() {
  let idx;
  let json;
  let store;
  return {
    name: 'Lunr + lunr-languages ko',
    build: (docs) => {
      const i = lunr(function () {
        this.use(lunr.ko);
        this.ref('chunk');
        this.field('text');
        for (const d of docs) this.add({ chunk: d.chunk, text: d.text });
      });
      json = JSON.stringify(i) + JSON.stringify(docs.map((d) => FIELDS.map((f) => d[f])));
    },
    bytes: () => json,
    open: () => {
      const split = json.indexOf('}[[') + 1;
      idx = lunr.Index.load(JSON.parse(json.slice(0, split)));
      store = JSON.parse(json.slice(split));
    },
    // Lunr's query syntax treats : ~ ^ + - * as operators; strip them so every keyword is a query.
    search: (q, k) => lunrSearch(idx, q).slice(0, k).map((r) => Number(r.ref)),
    ask: (q) => context(lunrSearch(idx, q).slice(0, 4).map((r) => Object.fromEntries(FIELDS.map((f, i) => [f, store[Number(r.ref)][i]])))),
  };
}

function lunrSearch(idx, q) {
  try {
    return idx.search(q.replace(/[:~^+\-*]/g, ' '));
  } catch {
    return [];
  }
}

// A peer's budgeted evidence: its top hits with their citations, cut to the same budget.
function context(hits) {
  let left = BUDGET;
  const parts = [];
  for (const h of hits) {
    if (left <= 0) break;
    const text = (h.text ?? '').slice(0, left);
    left -= text.length;
    parts.push(`[${parts.length + 1}] ${h.title} p.${h.page ?? '-'} ${h.link ?? ''}\n${text}`);
  }
  return parts.join('\n');
}

// ---------------------------------------------------------------- measurement

const now = () => Number(process.hrtime.bigint()) / 1e6; // ms

function quantiles(ms) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p) => s[Math.round((s.length - 1) * p)];
  return { median: q(0.5), p95: q(0.95) };
}

// Build, open, first query and warm passes of one engine; its timed passes come once every engine
// is warm ([`timed`]): timed one after the other from a fresh process, the first engine ran ~15 %
// slower than the same build timed after it (docs/peer-bench.md, session 34).
function prepare(engine, set) {
  const t0 = now();
  engine.build(set.docs);
  const buildMs = now() - t0;
  const stored = engine.bytes();
  const bytes = { raw: typeof stored === 'string' ? Buffer.byteLength(stored) : stored.length, gz: gz(stored) };
  // Open: the median of 5 (each from bytes/JSON text to a searchable index), each followed by
  // the first query (the same question each time; its median: one sample was as often a
  // collection of the garbage of the opens before it as the query's own cost).
  const opens = [];
  const firsts = [];
  for (let i = 0; i < 5; i++) {
    const t = now();
    engine.open();
    opens.push(now() - t);
    const t1 = now();
    engine.search(set.questions[0].query, 10);
    firsts.push(now() - t1);
  }
  const first = quantiles(firsts).median;
  // Warm: whole passes, for every engine alike, until a pass's per-query median is within 5 % of
  // the one before (at most five), since V8 moves hot code to its optimising tiers (wasm and JS)
  // in the background over several passes and groundgate keeps postings (src/index/parts.rs)
  // during the first. The first pass is timed (the "first pass" column); `warm passes` says how
  // many ran. `ask` runs code `search` does not (groundgate's gates and evidence): one pass too.
  const pass = () => {
    const ts = [];
    for (const q of set.questions) {
      const t = now();
      engine.search(q.query, 10);
      ts.push(now() - t);
    }
    return quantiles(ts);
  };
  const firstPass = pass();
  let warmPasses = 1;
  for (let last = firstPass.median; warmPasses < 5; ) {
    const median = pass().median;
    warmPasses += 1;
    const settled = Math.abs(median - last) <= 0.05 * last;
    last = median;
    if (settled) break;
  }
  for (const q of set.questions) engine.ask(q.query);
  return { engine, set, bytes, buildMs, openMs: quantiles(opens).median, firstMs: first, firstPass, warmPasses };
}

// The timed passes of a [`prepare`]d engine: search (with its quality) and ask.
function timed(prepared) {
  const { engine, set, ...warm } = prepared;
  const times = [];
  let hit4 = 0;
  let rr = 0;
  for (const q of set.questions) {
    const t = now();
    const ids = engine.search(q.query, 10);
    times.push(now() - t);
    const rank = ids.findIndex((id) => q.relevant(set.docs[id]));
    if (rank >= 0 && rank < 4) hit4 += 1;
    if (rank >= 0) rr += 1 / (rank + 1);
  }
  const askTimes = [];
  for (const q of set.questions) {
    const t = now();
    engine.ask(q.query);
    askTimes.push(now() - t);
  }
  return {
    engine: engine.name, ...warm, search: quantiles(times), ask: quantiles(askTimes),
    hit4: hit4 / set.questions.length, mrr: rr / set.questions.length,
  };
}

function nativeTimings(set) {
  const lines = (key) => set.questions.map((q, i) => JSON.stringify({ id: i, [key]: q.query })).join('\n') + '\n';
  const run = (args, input) => {
    const r = spawnSync(cli, args, { input, maxBuffer: 1 << 30 });
    const t = JSON.parse(r.stderr.toString().trim().split('\n').pop()).timings;
    return { median: t.median_us / 1000, p95: t.p95_us / 1000 };
  };
  return {
    search: run(['search', '--index', set.ggi, '--k', '10', '--jsonl', '--timings'], lines('query')),
    ask: run(['ask', '--index', set.ggi, '--now', '0', '--jsonl', '--timings'], lines('prompt')),
  };
}

function dirBytes(dir) {
  let raw = 0;
  let z = 0;
  let files = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const p = path.join(e.parentPath ?? e.path, e.name);
    raw += statSync(p).size;
    z += gz(readFileSync(p));
    files += 1;
  }
  return { raw, gz: z, files };
}

function pagefind() {
  const site = path.join(root, '.cache/fetch/libreoffice-help-ko/usr/share/libreoffice/help');
  if (!existsSync(site)) return null;
  const dest = path.join(out, 'pagefind');
  rmSync(dest, { recursive: true, force: true });
  const t = now();
  execFileSync(path.join(root, 'node_modules/.bin/pagefind'), ['--site', site, '--output-path', dest], { stdio: 'ignore' });
  return { ...dirBytes(dest), buildMs: now() - t };
}

// ---------------------------------------------------------------- report

const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
const ms = (x) => (x < 1 ? `${(x * 1000).toFixed(0)} µs` : `${x.toFixed(2)} ms`);
const ratio = (a, b) => `${(a / b).toFixed(a / b < 10 ? 2 : 0)}×`;

function main() {
  if (!existsSync(data)) throw new Error('the peer bench reads ../shared/data (development data), which is not here');
  const sets = [
    { name: 'rnd', title: 'R&D manuals (R&D FAQ questions)', ggi: path.join(root, 'indexes/rnd.ggi'), questions: rndQuestions() },
    { name: 'lohelp', title: 'LibreOffice help ko (index keywords)', ggi: path.join(root, 'indexes/lohelp.ggi'), questions: loQuestions() },
  ];
  const report = [];
  // SETS=rnd (or lohelp) runs one document set only.
  const pick = (process.env.SETS || '').split(',').filter(Boolean);
  for (const set of sets.filter((s) => pick.length === 0 || pick.includes(s.name))) {
    set.docs = chunks(set.ggi);
    // PEERS=groundgate,MiniSearch … limits the run to engines whose names start with one of them.
    const only = (process.env.PEERS || '').split(',').filter(Boolean);
    // The previous release for comparison: GG_PREV = a folder with its pkg/node build (node/) and
    // its indexes (rnd.ggi, lohelp.ggi), e.g. main before format v3.
    const prevDir = process.env.GG_PREV;
    // Several, comma-separated, with their labels in GG_PREV_LABEL (comma-separated too).
    const labels = (process.env.GG_PREV_LABEL || '').split(',');
    const prev = (prevDir || '').split(',').filter(Boolean).map((dir, i) => groundgate(set, path.join(dir, `${set.name}.ggi`),
      labels[i] || `groundgate (previous build ${dir}, its wasm)`, require(path.resolve(dir, 'node/groundgate.js'))));
    const engines = [
      groundgate(set, set.ggi, 'groundgate (wasm)'),
      ...prev,
      minisearch(null, 'MiniSearch (default)'),
      minisearch(bigrams, 'MiniSearch (Hangul bigrams)'),
      oramaEngine(words, 'Orama (word tokenizer)'),
      oramaEngine(bigrams, 'Orama (Hangul bigrams)'),
      lunrEngine(),
    ].filter((e, i) => i < 1 + prev.length || only.length === 0 || only.some((o) => e.name.startsWith(o)));
    const text = set.docs.reduce((n, d) => n + Buffer.byteLength(d.text), 0);
    console.error(`${set.title}: ${set.docs.length} chunks, ${kb(text)} of text, ${set.questions.length} questions`);
    // Each step starts with a collected heap (the chunks' JSON and the last engine's garbage are
    // not collected while the next runs).
    const prepared = [];
    for (const e of engines) {
      if (global.gc) global.gc();
      prepared.push(prepare(e, set));
    }
    const rows = [];
    for (const w of prepared) {
      if (global.gc) global.gc();
      const r = timed(w);
      console.error(`  ${r.engine}: search ${ms(r.search.median)}, Hit@4 ${r.hit4.toFixed(3)}`);
      rows.push(r);
    }
    const native = nativeTimings(set);
    report.push({ set, rows, native, text });
  }
  const pf = pagefind();

  const lines = [];
  const p = (s = '') => lines.push(s);
  p(`Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; medians of per-query times over all questions, one process.`);
  for (const { set, rows, native, text } of report) {
    const ours = rows[0];
    p();
    p(`### ${set.title}: ${set.docs.length} chunks, ${kb(text)} of chunk text, ${set.questions.length} questions`);
    p();
    p('| engine | index raw | gzip | build | open | first query | search p50, first pass | warm passes | search p50 | p95 | ask p50 | p95 | Hit@4 | MRR@10 |');
    p('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) {
      p(`| ${r.engine} | ${kb(r.bytes.raw)} | ${kb(r.bytes.gz)} | ${r.engine.startsWith('groundgate') ? '(CLI)' : ms(r.buildMs)} | ${ms(r.openMs)} | ${ms(r.firstMs)} | ${ms(r.firstPass.median)} | ${r.warmPasses} | ${ms(r.search.median)} | ${ms(r.search.p95)} | ${ms(r.ask.median)} | ${ms(r.ask.p95)} | ${r.hit4.toFixed(3)} | ${r.mrr.toFixed(3)} |`);
    }
    p(`| groundgate (native CLI) | | | | | | | | ${ms(native.search.median)} | ${ms(native.search.p95)} | ${ms(native.ask.median)} | ${ms(native.ask.p95)} | | |`);
    if (set.name === 'lohelp' && pf) {
      p(`| Pagefind (whole output folder, ${pf.files} files, ${ms(pf.buildMs)} to build from the HTML) | ${kb(pf.raw)} | ${kb(pf.gz)} | | | | | | | | | | | |`);
    }
    p();
    p('Ratios (peer ÷ groundgate wasm; > 1 means groundgate is smaller / faster):');
    p();
    p('| peer | index raw | gzip | open | search p50 | ask p50 |');
    p('|---|---|---|---|---|---|');
    for (const r of rows.slice(1)) {
      p(`| ${r.engine} | ${ratio(r.bytes.raw, ours.bytes.raw)} | ${ratio(r.bytes.gz, ours.bytes.gz)} | ${ratio(r.openMs, ours.openMs)} | ${ratio(r.search.median, ours.search.median)} | ${ratio(r.ask.median, ours.ask.median)} |`);
    }
    if (set.name === 'lohelp' && pf) p(`| Pagefind | ${ratio(pf.raw, ours.bytes.raw)} | ${ratio(pf.gz, ours.bytes.gz)} | | | |`);
    p(`| native CLI (wasm ÷ native) | | | | ${ratio(ours.search.median, native.search.median)} | ${ratio(ours.ask.median, native.ask.median)} |`);
  }
  const md = lines.join('\n') + '\n';
  writeFileSync(path.join(out, 'report.md'), md);
  process.stdout.write(md);
}

main();
