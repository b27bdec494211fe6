// The wasm Engine (pkg/node) against the native CLI: ≥ 500 prompts (questions, polite requests,
// pasted sentences, unrelated prompts, edge cases; Korean and English) over the default indexes
// give byte-identical `ask` JSON, sessions included. Also the Engine API's errors and rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const gg = require(path.join(root, 'pkg/node/groundgate.js'));
const cli = path.join(root, 'target/release/groundgate');

const indexes = ['rnd', 'constitution', 'lohelp', 'pyfaq']
  .map((n) => path.join(root, 'indexes', `${n}.ggi`))
  .filter((p) => existsSync(p));
indexes.push(path.join(root, 'tests/fixtures/v1/excerpts.ggi'));

// The parity set (tests/fixtures/parity_prompts.jsonl, shared with the wasmtime test): templated
// questions, polite requests and pasted sentences over the default instances' topics (Korean and
// English), the unrelated and polite prompts of benches/data, the router's labelled prompts, and
// edge cases (empty, one word, 1,600 characters, forced tags, a hostile closing tag). Every 7th
// prompt carries a session, so dedup is exercised.
const parity = readFileSync(path.join(root, 'tests/fixtures/parity_prompts.jsonl'), 'utf8')
  .trim().split('\n').map((l) => JSON.parse(l));

test('ask JSON is byte-identical natively and in wasm (≥ 500 prompts, with sessions)', () => {
  assert.ok(parity.length >= 500, `only ${parity.length} prompts`);
  assert.ok(indexes.length >= 2, 'needs at least one default index: run ./build.sh');
  const native = execFileSync(cli, ['ask', '--now', '0', '--jsonl', '--index', ...indexes], {
    input: parity.map((l) => JSON.stringify(l)).join('\n') + '\n', maxBuffer: 1 << 30,
  }).toString().trim().split('\n');
  assert.equal(native.length, parity.length);
  const engine = new gg.Engine();
  engine.setClock(0);
  for (const p of indexes) {
    const bytes = readFileSync(p);
    engine.addInstance(new gg.Index(bytes).info().name, bytes);
  }
  let pushed = 0;
  parity.forEach(({ id: i, prompt: p, session }) => {
    const opts = session === undefined ? undefined : { session };
    let got;
    try {
      got = `{"id":${i},${engine.askJson(p, opts).slice(1)}`;
      pushed += got.includes('"route":"push"') ? 1 : 0;
    } catch (e) {
      got = JSON.stringify({ id: i, error: { code: e.code, message: e.message } });
    }
    assert.equal(got, native[i], `prompt ${i}: ${p.slice(0, 60)}`);
  });
  assert.ok(pushed > 20, `the parity set must exercise injection (${pushed} pushed)`);
});

test('Engine API: objects, errors with codes, rules', () => {
  const engine = new gg.Engine({ top_k: 3 });
  const bytes = readFileSync(path.join(root, 'tests/fixtures/v1/excerpts.ggi'));
  engine.addInstance('x', bytes, { sufficiency: 0, relevance: 0 });
  assert.deepEqual(engine.instances(), ['x']);
  const a = engine.ask('대한민국의 주권은 누구에게 있나요? #x');
  assert.equal(a.route, 'push');
  assert.equal(a.kind, 'question');
  assert.equal(a.evidence[0].article, '제1조');
  assert.ok(a.context.startsWith('<groundgate-evidence>'));
  assert.equal(engine.search('x', '거주 이전의 자유', 1)[0].article, '제14조');
  assert.equal(engine.info('x').name, 'excerpts');
  assert.throws(() => engine.addInstance('x', bytes), (e) => e.code === 'invalid_argument');
  assert.throws(() => engine.addInstance('y', new Uint8Array([0, 1, 2])), (e) => e.code === 'bad_magic');
  assert.throws(() => engine.search('nope', 'q', 3), (e) => e.code === 'invalid_argument' && /no instance named/.test(e.message));
  assert.throws(() => engine.ask(''), (e) => e.code === 'invalid_argument');
  assert.throws(() => engine.ask('x y', { nonsense: 1 }), (e) => e.code === 'invalid_argument');
  assert.throws(() => new gg.Engine({ top_k: 0 }), (e) => e.code === 'invalid_argument');
  // The shared budget's power: a whole number 0..=8; out of range is refused by name, a wrong
  // type as the config's (with its position).
  assert.ok(new gg.Engine({ share_power: 0 }));
  assert.throws(() => new gg.Engine({ share_power: 9 }), (e) => e.code === 'invalid_argument' && /config\.share_power/.test(e.message));
  for (const bad of [-1, 1.5, '2', null]) {
    assert.throws(() => new gg.Engine({ share_power: bad }), (e) => e.code === 'invalid_argument' && /invalid config/.test(e.message), String(bad));
  }
  assert.match(gg.Engine.rules('ko'), /근거 배달 규칙/);
  assert.throws(() => gg.Engine.rules('fr'), (e) => e.code === 'invalid_argument');
  engine.removeInstance('x');
  assert.deepEqual(engine.instances(), []);
});

test('wrong JS types are typed errors, never a trap or a poisoned engine (issue 14)', () => {
  const engine = new gg.Engine();
  const bytes = readFileSync(path.join(root, 'tests/fixtures/v1/excerpts.ggi'));
  engine.addInstance('x', bytes, { sufficiency: 0, relevance: 0 });
  engine.setClock(0);
  const probe = () => engine.askJson('대한민국의 주권은 누구에게 있나요? #x');
  const before = probe();
  const bad = [
    () => engine.addInstance('y', null),
    () => engine.addInstance('y', 'not bytes'),
    () => engine.addInstance('y', new Uint16Array([1, 2])),
    () => engine.addInstance(null, bytes),
    () => engine.addInstance(42, bytes),
    () => engine.ask(42),
    () => engine.ask({}),
    () => engine.ask(null),
    () => engine.ask(undefined),
    () => engine.askJson(Symbol('x')),
    () => engine.askJson(10n),
  ];
  for (const call of bad) {
    assert.throws(call, (e) => e.code === 'invalid_argument', String(call));
    assert.equal(probe(), before, `the engine answers as before after ${call}`);
  }
  assert.deepEqual(engine.instances(), ['x']);
});

test('a number that is not finite in an options object is a typed error naming it, not "not given"', () => {
  // JSON.stringify writes NaN and ±Infinity as null, which serde reads as an absent option.
  const engine = new gg.Engine();
  const bytes = readFileSync(path.join(root, 'tests/fixtures/v1/excerpts.ggi'));
  engine.addInstance('x', bytes);
  const named = (key, value) => (e) => e.code === 'invalid_argument' && e.message.includes(`"${key}" is ${value}, not a finite number`);
  assert.throws(() => engine.addInstance('y', bytes, { relevance: NaN }), named('relevance', 'NaN'));
  assert.throws(() => engine.ask('주권', { now_ms: Infinity }), named('now_ms', 'Infinity'));
  assert.throws(() => engine.ask('주권', { rerank: { weights: { depth: -Infinity } } }), named('depth', '-Infinity'));
  assert.throws(() => engine.askJson('주권', { now_ms: new Number(NaN) }), named('now_ms', 'NaN'));
  assert.throws(() => new gg.Engine({ top_k: NaN }), named('top_k', 'NaN'));
  const carried = (key, what) => (e) => e.code === 'invalid_argument' && e.message.includes(`"${key}" is a ${what}, which JSON cannot carry`);
  assert.throws(() => engine.ask('주권', { session: () => 's' }), carried('session', 'function'));
  assert.throws(() => engine.ask('주권', { format: Symbol('short') }), carried('format', 'symbol'));
  assert.throws(() => engine.addInstance('y', bytes, { verify: () => false }), carried('verify', 'function'));
  assert.deepEqual(engine.instances(), ['x']);
  assert.equal(engine.ask('주권', { now_ms: 5 }).route !== undefined, true);
});
