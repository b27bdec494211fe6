// The pull tools in the wasm Engine (pkg/node) against the native CLI: the shared call set
// (tests/fixtures/tool_calls.jsonl, also run by the wasmtime test) gives byte-identical JSON
// through `handleLine`, `callToolJson` and `callTool`; bad arguments throw typed errors.
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
const lines = readFileSync(path.join(root, 'tests/fixtures/tool_calls.jsonl'), 'utf8').trim().split('\n');

function engine() {
  const e = new gg.Engine();
  for (const p of indexes) {
    const bytes = readFileSync(p);
    e.addInstance(new gg.Index(bytes).info().name, bytes);
  }
  return e;
}

test('tool results are byte-identical natively and in wasm (handleLine, callToolJson, callTool)', () => {
  assert.ok(indexes.length === 5, 'needs the default indexes: run ./build.sh');
  const args = ['tool', '--jsonl'];
  for (const p of indexes) args.push('--index', p);
  const native = execFileSync(cli, args, { input: lines.join('\n') + '\n', maxBuffer: 1 << 30 })
    .toString().trim().split('\n');
  assert.equal(native.length, lines.length);
  const e = engine();
  let ok = 0;
  lines.forEach((line, i) => {
    assert.equal(e.handleLine(line), native[i], `line ${i}: ${line.slice(0, 120)}`);
    let req;
    try { req = JSON.parse(line); } catch { return; }
    if (typeof req !== 'object' || Array.isArray(req) || !req.tool || !req.arguments || Array.isArray(req.arguments)) return;
    const reply = JSON.parse(native[i]);
    if (reply.result !== undefined) {
      ok++;
      const text = e.callToolJson(req.tool, JSON.stringify(req.arguments));
      assert.equal(`{"id":${JSON.stringify(req.id)},"result":${text}}`, native[i]);
      assert.deepEqual(e.callTool(req.tool, req.arguments), reply.result);
    } else {
      assert.throws(() => e.callTool(req.tool, req.arguments),
        (err) => err.code === reply.error.code && err.message === reply.error.message);
    }
  });
  assert.ok(ok >= 70, `only ${ok} successful calls`);
});

test('typed methods, definitions and bad input', () => {
  const e = engine();
  const defs = gg.Engine.toolDefinitions();
  assert.deepEqual(defs.map((d) => d.name), ['search', 'grep', 'sources', 'read', 'links']);
  for (const d of defs) {
    assert.equal(d.inputSchema.type, 'object');
    assert.equal(d.outputSchema.type, 'object');
    assert.equal(d.annotations.readOnlyHint, true);
  }
  const s = e.searchTool({ query: '거주 이전의 자유', instance: 'excerpts', k: 1 });
  assert.equal(s.results[0].article, '제14조');
  const r = e.read({ instance: 'excerpts', source: 'constitution', article: 14 });
  assert.match(r.text, /거주·이전의 자유/);
  assert.ok(e.grep({ text: '행복을 추구할 권리' }).total >= 1);
  assert.ok(e.sources().sources.length > 10);
  assert.equal(e.links({ instance: 'excerpts', source: 'notice-2026-01' }).links.length, 1);
  const bad = (f) => assert.throws(f, (err) => err.code === 'invalid_argument');
  bad(() => e.searchTool({ query: 'x', k: 0 }));
  bad(() => e.searchTool({ query: 'x', k: 'many' }));
  bad(() => e.searchTool({ query: '가'.repeat(20001) }));
  bad(() => e.searchTool(5));
  bad(() => e.searchTool());
  bad(() => e.read({ instance: 'nope', source: 'x' }));
  bad(() => e.read({ instance: 'excerpts', source: 'constitution', page: 1000 }));
  bad(() => e.grep({ text: 'a'.repeat(501) }));
  bad(() => e.callTool('rm', {}));
  bad(() => e.callToolJson('search', '{"query":'));
  assert.match(e.handleLine('{"id":1,"tool":"sources","arguments":{"instance":"nope"}}'), /^\{"id":1,"error":\{"code":"invalid_argument"/);
  assert.equal(e.handleLine(''), '');
});
