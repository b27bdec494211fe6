// Hostile JS calls (issue 14): a seeded random sequence of ≥ 2,000 calls of every method of the wasm
// package's Engine and Index with values no TypeScript caller would pass — null, undefined,
// numbers (NaN, ±Infinity, 1e9, fractions), huge strings, lone surrogates, objects, arrays, typed
// arrays of the wrong kind, BigInt, symbols, functions, throwing getters, throwing toJSON, revoked
// Proxies, cycles. After each call a probe `askJson` must answer byte for byte as before. Counted:
// traps (WebAssembly.RuntimeError), untyped throws (an Error without one of the typed codes, e.g. a
// TypeError from the glue), poisoned objects (the probe throws), changed answers. All must be 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const gg = require(path.join(root, 'pkg/node/groundgate.js'));
const bytes = readFileSync(path.join(root, 'tests/fixtures/v1/excerpts.ggi'));

const CODES = new Set(['bad_magic', 'unsupported_version', 'truncated', 'checksum', 'corrupt', 'input', 'invalid_argument']);
const CALLS = 2400;

// mulberry32: the same sequence every run.
function rng(seed) {
  return () => {
    seed = (seed + 0x6D2B79F5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hostileValues() {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const cycle = {};
  cycle.self = cycle;
  return [
    null, undefined, true, false, 0, -1, 42, 3.5, NaN, Infinity, -Infinity, 1e9, -1e9, 2 ** 53, 2 ** 64,
    Number.MAX_VALUE, Number.MIN_VALUE, -0,
    '', ' ', 'x', 'nope', 'search', 'ko', '#', '\u0000', '\ud800', '\udfff\ud800', '가'.repeat(300_000),
    'a'.repeat(2_000_000), '{"id":1,"tool":"sources"}', '{"query":', '[]', 'null', '{"id":1e400}',
    'groundgate-session 1\nprobe 0 1\n', 'groundgate-session 1\nx 4294967296 -1\n',
    {}, { a: 1 }, { query: 42 }, { query: null }, { k: 1e9 }, { session: 5 }, { format: 'huge' }, { now_ms: -1 },
    { rerank: { k: NaN } }, { top_k: 1e9 }, { anchors: [null] }, { sufficiency: 2 },
    { instance: 'probe', source: {}, chunk: -1 }, { instance: 'probe', source: 'constitution', chunk: 1e9 },
    { query: 'x', k: 2 ** 31 }, { text: '', limit: 1e9 }, { toJSON() { throw new Error('boom'); } },
    { get query() { throw new Error('getter'); } }, Object.create(null), cycle, revoked.proxy,
    [], [1, 2], ['x'], [null], new Array(5),
    new Uint8Array([0, 1, 2]), new Uint8Array(0), new Uint16Array([1, 2]), new Int8Array(4), new Float64Array([NaN]),
    new BigInt64Array(2), new ArrayBuffer(16), new DataView(new ArrayBuffer(4)), Buffer.from('not an index'),
    10n, -1n, 2n ** 70n, Symbol('s'), Symbol.iterator, () => 1, function named() {}, class K {},
    new Date(), /re/g, new Map([[1, 2]]), new Set([1]), new Error('e'), Promise.resolve(1), new WeakMap(),
    globalThis,
  ];
}

test(`${CALLS} hostile calls: 0 traps, 0 untyped throws, 0 poisoned objects, 0 changed answers`, () => {
  const values = hostileValues();
  const random = rng(0x14_2026);
  const pick = () => values[Math.floor(random() * values.length)];
  const engine = new gg.Engine();
  engine.addInstance('probe', bytes, { sufficiency: 0, relevance: 0 });
  const index = new gg.Index(bytes);
  const probe = () => {
    engine.setClock(0);
    return engine.askJson('대한민국의 주권은 누구에게 있나요? #probe') + index.searchJson('거주 이전의 자유', 3);
  };
  const before = probe();
  // Every method and constructor, with one to three hostile arguments.
  const methods = {
    'new Engine': (a) => new gg.Engine(a),
    setClock: (a) => engine.setClock(a),
    addInstance: (a, b, c) => engine.addInstance(a, b, c),
    // With real bytes a hostile name or options may be accepted: then unloaded again, so that the
    // probe's answer (which spans every loaded instance) stays the same.
    'addInstance(name, bytes, options)': (a, b, c) => {
      const name = typeof a === 'string' && a !== 'probe' ? a : 'other';
      engine.addInstance(name, bytes, c);
      engine.removeInstance(name);
    },
    'addInstance(name, bad bytes)': (a, b) => engine.addInstance('other', b),
    removeInstance: (a) => engine.removeInstance(a === 'probe' ? 'other' : a),
    instances: () => engine.instances(),
    info: (a) => engine.info(a),
    ask: (a, b) => engine.ask(a, b),
    askJson: (a, b) => engine.askJson(a, b),
    'ask(prompt, options)': (a, b) => engine.ask('대한민국의 주권은?', b),
    search: (a, b, c) => engine.search(a, b, c),
    'search(probe, q, k)': (a, b, c) => engine.search('probe', '주권', c),
    clearSession: (a) => engine.clearSession(a),
    exportSession: (a) => engine.exportSession(a),
    importSession: (a, b) => engine.importSession(a, b),
    rules: (a) => gg.Engine.rules(a),
    callTool: (a, b) => engine.callTool(a, b),
    'callTool(name, args)': (a, b) => engine.callTool(['search', 'grep', 'sources', 'read', 'links'][Math.floor(random() * 5)], b),
    callToolJson: (a, b) => engine.callToolJson(a, b),
    toolDefinitions: () => gg.Engine.toolDefinitions(),
    handleLine: (a) => engine.handleLine(a),
    askLine: (a, b, c) => engine.askLine(a, b, c),
    'askLine(line, n, defaults)': (a, b, c) => engine.askLine('{"id":1,"prompt":"대한민국의 주권은?"}', b, c),
    toolLine: (a, b, c) => engine.toolLine(a, b, c),
    'toolLine(line, n, defaults)': (a, b, c) => engine.toolLine('{"id":1,"query":"주권"}', b, c),
    funnel: (a) => gg.Engine.funnel(a),
    searchContext: (a) => gg.Engine.searchContext(a),
    'searchContext({results})': (a) => gg.Engine.searchContext({ results: [a] }),
    searchTool: (a) => engine.searchTool(a),
    grep: (a) => engine.grep(a),
    sources: (a) => engine.sources(a),
    read: (a) => engine.read(a),
    links: (a) => engine.links(a),
    rebelPrompt: (a) => engine.rebelPrompt(a),
    'rebelPrompt(args)': (a, b) => engine.rebelPrompt({ query: '주권', instance: 'probe', k: b }),
    rebelCriteriaPrompt: (a) => gg.Engine.rebelCriteriaPrompt(a),
    rerankWith: (a, b) => engine.rerankWith(a, b),
    rrf: (a) => gg.Engine.rrf(a),
    'new Index': (a) => new gg.Index(a),
    'Index.verify': () => index.verify(),
    'Index.search': (a, b) => index.search(a, b),
    'Index.searchJson': (a, b) => index.searchJson(a, b),
    'Index.search(q, k)': (a, b) => index.search('주권', b),
    'Index.info': () => index.info(),
    'Index.searchLine': (a, b, c) => index.searchLine(a, b, c),
  };
  const names = Object.keys(methods);
  const tally = { calls: 0, answered: 0, typed: 0, traps: [], untyped: [], poisoned: [], changed: [] };
  const perMethod = Object.fromEntries(names.map((n) => [n, 0]));
  for (let i = 0; i < CALLS; i++) {
    // Every method in turn at first, then at random.
    const name = i < names.length ? names[i] : names[Math.floor(random() * names.length)];
    const args = [pick(), pick(), pick()];
    const what = () => `${i}: ${name}(${args.map(describe).join(', ')})`;
    tally.calls++;
    perMethod[name]++;
    try {
      const out = methods[name](...args);
      if (out && typeof out.free === 'function' && out !== engine && out !== index) out.free();
      tally.answered++;
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) tally.traps.push(`${what()}: ${e.message}`);
      else if (e && CODES.has(e.code)) tally.typed++;
      else tally.untyped.push(`${what()}: ${e && e.name}: ${e && e.message}`);
    }
    let now;
    try {
      now = probe();
    } catch (e) {
      tally.poisoned.push(`${what()}: ${e && e.message}`);
      break; // nothing after a poisoned engine would mean anything
    }
    if (now !== before) tally.changed.push(what());
  }
  console.log(`hostile JS calls: ${tally.calls} (${names.length} methods, each ≥ ${Math.min(...Object.values(perMethod))} times); ` +
    `answered ${tally.answered}, typed errors ${tally.typed}, traps ${tally.traps.length}, untyped throws ${tally.untyped.length}, ` +
    `poisoned ${tally.poisoned.length}, changed answers ${tally.changed.length}`);
  assert.ok(tally.calls >= 2000);
  assert.ok(Math.min(...Object.values(perMethod)) >= 20, 'every method is called many times');
  assert.ok(tally.typed > 1000, `most hostile calls are typed errors (${tally.typed})`);
  assert.deepEqual(tally.traps, [], 'traps');
  assert.deepEqual(tally.untyped, [], 'untyped throws');
  assert.deepEqual(tally.poisoned, [], 'poisoned objects');
  assert.deepEqual(tally.changed, [], 'changed answers');
});

test('a freed Engine or Index, or a method called on another object, refuses with a typed error', () => {
  // wasm-bindgen's own refusals (build.sh `typed_refusals`): every instance method, no traps.
  const engine = new gg.Engine();
  engine.addInstance('probe', bytes);
  const index = new gg.Index(bytes);
  engine.free();
  index.free();
  const cases = [];
  for (const [obj, proto] of [[engine, gg.Engine.prototype], [index, gg.Index.prototype]]) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || name.startsWith('__') || typeof proto[name] !== 'function') continue;
      cases.push([`${proto.constructor.name}.${name} after free()`, () => obj[name]('x', 1)]);
      if (name !== 'free') cases.push([`${proto.constructor.name}.${name} on {}`, () => proto[name].call({}, 'x', 1)]);
    }
  }
  // On a live object of the other class (build.sh `own_receivers`): it read one Rust type as the
  // other — memory out of bounds, and the object locked for ever.
  const liveEngine = new gg.Engine();
  liveEngine.addInstance('probe', bytes);
  const liveIndex = new gg.Index(bytes);
  const probe = () => JSON.stringify([liveEngine.search('probe', '대한민국의 주권은 누구에게', 3), liveIndex.search('주권', 3)]);
  const before = probe();
  for (const [other, proto] of [[liveIndex, gg.Engine.prototype], [liveEngine, gg.Index.prototype]]) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || name.startsWith('__') || typeof proto[name] !== 'function') continue;
      cases.push([`${proto.constructor.name}.${name} on a live ${other.constructor.name}`, () => proto[name].call(other, 'x', 1)]);
    }
  }
  assert.ok(cases.length > 60, `every method (${cases.length} cases)`);
  for (const [what, call] of cases) {
    assert.throws(call, (e) => {
      assert.ok(!(e instanceof WebAssembly.RuntimeError), `${what}: a trap`);
      assert.equal(e.code, 'invalid_argument', `${what}: ${e.message}`);
      assert.match(e.message, /freed \(free\(\) was called\) or is not a groundgate object/, what);
      return true;
    }, what);
  }
  assert.equal(probe(), before, 'the live objects answer as before');
});

test('a call or free() from inside a call of the same object is refused in words that say so, and loses nothing', () => {
  // wasm-bindgen refuses both ("recursive use …", "attempted to take ownership …", words naming its
  // internals); a free() inside a call takes effect when that call returns.
  const engine = new gg.Engine();
  engine.addInstance('probe', bytes);
  const before = JSON.stringify(engine.search('probe', '대한민국의 주권은 누구에게', 3));
  const refused = [];
  const args = {
    get query() {
      for (const call of [() => engine.ask('대한민국의 주권은 누구에게 있나요?'), () => engine.free()]) {
        try {
          call();
          refused.push('ran');
        } catch (e) {
          refused.push(e);
        }
      }
      return '주권';
    },
  };
  assert.equal(engine.searchTool(args).query, '주권');
  assert.equal(refused.length, 2);
  for (const e of refused) assert.equal(e.code, 'invalid_argument', String(e));
  assert.match(refused[0].message, /still in a call that has not returned/);
  assert.match(refused[1].message, /free\(\) came while a call of this object was still running.*freed when that call returns/);
  // The outer call answered; then the free took effect. Another Engine is untouched.
  assert.throws(() => engine.search('probe', '주권', 1), (e) => e.code === 'invalid_argument' && /was freed/.test(e.message));
  const other = new gg.Engine();
  other.addInstance('probe', bytes);
  assert.equal(JSON.stringify(other.search('probe', '대한민국의 주권은 누구에게', 3)), before);
  // Without the free, the same re-entrant call leaves the Engine answering as before.
  const args2 = { get query() { try { other.ask('대한민국의 주권은 누구에게 있나요?'); } catch { /* refused */ } return '주권'; } };
  other.searchTool(args2);
  assert.equal(JSON.stringify(other.search('probe', '대한민국의 주권은 누구에게', 3)), before);
});

test('index bytes that throw when read (a Proxy, a transferred buffer, a subclass) are refused typed and poison nothing', () => {
  // js-sys read them with calls that do not catch: the throw left the Engine borrowed for ever
  // (every later call, free() too, failed) and the indexer's read() callback untyped.
  const engine = new gg.Engine();
  engine.addInstance('ok', bytes);
  // The hits (an answer's `elapsed_ms` may differ between two calls).
  const probe = () => JSON.stringify(engine.search('ok', '대한민국의 주권은 누구에게', 5));
  const before = probe();
  const detached = new Uint8Array(bytes);
  structuredClone(detached.buffer, { transfer: [detached.buffer] });
  class Throwing extends Uint8Array {
    get length() { throw new Error('no length'); }
  }
  const odd = [
    ['a Proxy of the bytes', new Proxy(new Uint8Array(bytes), {})],
    ['a transferred (detached) buffer', detached],
  ];
  for (const [what, value] of odd) {
    assert.throws(() => engine.addInstance('x', value), (e) => e.code === 'invalid_argument' && /can be read/.test(e.message), what);
    assert.throws(() => new gg.Index(value), (e) => e.code === 'invalid_argument', what);
    assert.equal(probe(), before, `${what}: the engine answers as before`);
  }
  // A subclass is a Uint8Array: read by the typed array's own length, it loads.
  const sub = new Throwing(bytes.length);
  sub.set(bytes);
  engine.addInstance('sub', sub);
  assert.deepEqual(engine.instances().sort(), ['ok', 'sub']);
  engine.free();
  const indexer = require(path.join(root, 'pkg/indexer/groundgate_indexer.js'));
  const files = { kind: () => 'other', list: () => [], read: () => new Uint8Array(0) };
  for (const [what, call] of [
    ['buildIndex(42)', () => indexer.buildIndex(42, files)],
    ['buildIndex text 42', () => indexer.buildIndex('m.toml', files, 42)],
    ['buildIndex progress 42', () => indexer.buildIndex('m.toml', files, undefined, 42)],
    ['configFromToml(42)', () => indexer.configFromToml(42)],
    ['configFromToml()', () => indexer.configFromToml()],
    ['configFromToml unknown key', () => indexer.configFromToml('total_budgt = 1')],
    ['configFromToml 2^32', () => indexer.configFromToml('min_words = 4294967296')],
  ]) {
    assert.throws(call, (e) => !(e instanceof WebAssembly.RuntimeError) && e.code === 'invalid_argument', what);
  }
  const proxied = { kind: (p) => (p.endsWith('.toml') ? 'file' : 'other'), list: () => [], read: () => new Proxy(new Uint8Array(1), {}) };
  assert.throws(() => indexer.buildIndex('m.toml', proxied), (e) => e.code === 'input' && /read\(\) did not return bytes/.test(e.message));
  assert.equal(JSON.parse(indexer.configFromToml('top_k = 5')).top_k, 5);
  assert.throws(() => indexer.configFromToml('top_k = 4\nmin_words = "x"'),
    (e) => e.message === 'invalid config: line 2, column 13: invalid type: string "x", expected u32');
});

function describe(v) {
  try {
    if (typeof v === 'string') return v.length > 20 ? `string(${v.length})` : JSON.stringify(v);
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'symbol' || typeof v === 'function') return String(v).slice(0, 30);
    if (v && typeof v === 'object') return Object.prototype.toString.call(v);
    return String(v);
  } catch {
    return '?';
  }
}

test('a string far over every limit is refused before it is copied into wasm memory, and poisons nothing', () => {
  const e = new gg.Engine();
  try {
    e.addInstance('c', readFileSync(path.join(root, 'indexes/constitution.ggi')));
    const huge = '가'.repeat(16777217);
    const before = process.memoryUsage().arrayBuffers;
    for (const call of [() => e.ask(huge), () => e.search('c', huge, 3), () => e.importSession(huge, 'x'), () => e.addInstance(huge, new Uint8Array(8))]) {
      assert.throws(call, (err) => err.code === 'invalid_argument' && /longer than any argument takes \(16777216 characters at most\)/.test(err.message));
    }
    // Nothing was copied: wasm memory (an ArrayBuffer) did not grow by the ~50 MB a copy takes.
    assert.ok(process.memoryUsage().arrayBuffers - before < 10_000_000, `${process.memoryUsage().arrayBuffers - before} bytes more`);
    // Just under the limit is the engine's own refusal, and the engine answers as before.
    assert.throws(() => e.ask('가'.repeat(16777216)), (err) => err.code === 'invalid_argument' && !/longer than any argument/.test(err.message));
    assert.equal(e.ask('대한민국의 주권은 누구에게 있나요?').route, 'push');
    assert.match(e.handleLine(huge), /"error":\{"code":"invalid_argument","message":"invalid line: longer than any argument takes/);
    assert.throws(() => e.callToolJson('search', huge), (err) => err.code === 'invalid_argument');
    assert.throws(() => e.ask('x', { session: huge }), (err) => err.code === 'invalid_argument');
    assert.equal(e.ask('대한민국의 주권은 누구에게 있나요?').route, 'push');
  } finally {
    e.free();
  }
});
