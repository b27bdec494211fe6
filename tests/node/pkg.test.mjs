// The wasm package (pkg/node) under Node: it opens an index, answers searches byte-identically to
// the native CLI, and turns bad input into exceptions carrying the typed error's code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const gg = require(path.join(root, 'pkg/node/groundgate.js'));
const fixture = path.join(root, 'tests/fixtures/v1/excerpts.ggi');
const cli = path.join(root, 'target/release/groundgate');

test('opens an index and searches with citations', () => {
  const index = new gg.Index(readFileSync(fixture));
  index.verify();
  const hits = index.search('대한민국의 주권은 누구에게 있나요', 3);
  assert.ok(hits.length > 0);
  assert.equal(hits[0].source, 'constitution');
  assert.equal(hits[0].article, '제1조');
  assert.equal(hits[0].rank, 1);
  assert.equal(index.info().name, 'excerpts');
});

test('search JSON is byte-identical to the native CLI', () => {
  const index = new gg.Index(readFileSync(fixture));
  const queries = readFileSync(path.join(root, 'tests/fixtures/queries.jsonl'), 'utf8').trim().split('\n');
  const queries2 = [...queries.map((l) => JSON.parse(l).query), 'python design FAQ', '헌법 개정 절차', 'Ctrl F'];
  const input = queries2.map((q, i) => JSON.stringify({ id: i, query: q })).join('\n') + '\n';
  const native = execFileSync(cli, ['search', '--index', fixture, '--k', '4', '--jsonl'], { input }).toString().trim().split('\n');
  assert.equal(native.length, queries2.length);
  queries2.forEach((q, i) => {
    const wasm = `{"id":${i},"hits":${index.searchJson(q, 4)}}`;
    assert.equal(wasm, native[i], `query ${q}`);
  });
});

test('search objects are JSON.parse of the search JSON, key order included, on every text codec', () => {
  // Index.search and Engine.search build their hit objects in JS from numbers and one string
  // (wasm.rs hits_to_js); searchJson is serde's JSON, byte-identical to the CLI (test above).
  const queries = readFileSync(path.join(root, 'tests/fixtures/queries.jsonl'), 'utf8').trim().split('\n')
    .map((l) => JSON.parse(l).query);
  const fixtures = ['v1', 'v2', 'v3', 'v4', 'v5'].flatMap((v) => {
    const dir = path.join(root, 'tests/fixtures', v);
    return readdirSync(dir).filter((f) => f.endsWith('.ggi')).map((f) => path.join(dir, f));
  });
  assert.ok(fixtures.length >= 5);
  let compared = 0;
  for (const file of fixtures) {
    const bytes = readFileSync(file);
    const index = new gg.Index(bytes);
    const engine = new gg.Engine();
    engine.addInstance('x', bytes);
    for (const q of [...queries, '대한민국 국민 자유 권리 의무 법률', 'python design FAQ', 'Ctrl F', '😀 주권']) {
      for (const k of [1, 4, 1000]) {
        const json = index.searchJson(q, k);
        const hits = index.search(q, k);
        assert.equal(JSON.stringify(hits), json, `${file}: ${q} (k ${k})`);
        assert.deepEqual(hits, JSON.parse(json));
        assert.equal(JSON.stringify(engine.search('x', q, k)), json);
        compared += hits.length;
      }
    }
  }
  assert.ok(compared > 100, `${compared} hits compared`);
});

test('bad bytes and bad arguments throw typed errors', () => {
  assert.throws(() => new gg.Index(new Uint8Array([1, 2, 3])), (e) => e.code === 'bad_magic');
  const bytes = new Uint8Array(readFileSync(fixture));
  assert.throws(() => new gg.Index(bytes.subarray(0, bytes.length - 5)), (e) => e.code === 'truncated');
  const v = bytes.slice();
  v[8] = 9;
  assert.throws(() => new gg.Index(v), (e) => e.code === 'unsupported_version' && /rebuild/.test(e.message));
  const index = new gg.Index(bytes);
  assert.throws(() => index.search('', 3), (e) => e.code === 'invalid_argument');
  assert.throws(() => index.search('x', 0), (e) => e.code === 'invalid_argument');
  assert.throws(() => index.search('가'.repeat(20001), 3), (e) => e.code === 'invalid_argument');
});

test('Engine.addInstance checks every checksum unless told the host did: an altered file is refused, the engine unharmed', () => {
  const bytes = new Uint8Array(readFileSync(fixture));
  const altered = bytes.slice();
  altered[altered.length - 1] ^= 1; // in the last section, which a search may never read
  const engine = new gg.Engine();
  assert.throws(() => engine.addInstance('x', altered), (e) => e.code === 'checksum' && /checksum mismatch in section/.test(e.message));
  assert.throws(() => engine.addInstance('x', altered, { verify: true }), (e) => e.code === 'checksum');
  assert.deepEqual(engine.instances(), []);
  assert.throws(() => engine.addInstance('x', bytes, { verify: 'no' }), (e) => e.code === 'invalid_argument' && /expected a boolean/.test(e.message));
  engine.addInstance('x', bytes);
  assert.equal(engine.search('x', '대한민국의 주권', 1)[0].article, '제1조');
  engine.addInstance('y', altered, { verify: false });
  assert.deepEqual(engine.instances(), ['x', 'y']);
  // A #tag names an instance whatever its case: names that differ only in case are refused.
  assert.throws(() => engine.addInstance('X', bytes), (e) => e.code === 'invalid_argument' && /only in case/.test(e.message));
  assert.throws(() => engine.clearSession(''), (e) => e.code === 'invalid_argument' && /session/.test(e.message));
  engine.free();
});
