// The `rerank` ask option (docs/rerank.md) from JS: the wasm Engine gives byte-identical JSON to the
// native CLI (`ask --jsonl` lines with "rerank"), and bad options throw Errors with a code.
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
const indexes = ['rnd', 'constitution']
  .map((n) => path.join(root, 'indexes', `${n}.ggi`))
  .filter((p) => existsSync(p));

const chunks = (file) =>
  execFileSync(cli, ['chunks', '--index', file], { maxBuffer: 1 << 28 }).toString().trim().split('\n').map((l) => JSON.parse(l));

test('ask with rerank: the same JSON in wasm and natively', { skip: indexes.length < 2 && 'default indexes not built' }, () => {
  // A host's own ranking: references from `groundgate chunks`, here a few chunks of each index.
  const refs = indexes.flatMap((f) => chunks(f).filter((c, i) => i % 97 === 3).slice(0, 5).map((c) => c.ref));
  const prompts = ['연구수당은 얼마까지 계상할 수 있나요?', '간접비 비율은 어떻게 정하나요?', '대통령의 임기는 몇 년인가요?',
    '근로3권 내용 정리해줘', '기술료 납부 기한'];
  const options = [
    { weights: { diversity: 1 } },
    { ranking: refs, k: 60 },
    { ranking: refs.slice().reverse(), weights: { depth: 1, diversity: 1, clarity: 0.5, authority: 1, recency: 1 }, today: '2026-11', pool: 30 },
  ];
  const lines = [];
  let id = 0;
  for (const p of prompts) for (const r of options) lines.push({ id: id++, prompt: p, rerank: r });
  const native = execFileSync(cli, ['ask', '--now', '0', '--index', ...indexes, '--jsonl'], {
    input: lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
    maxBuffer: 1 << 26,
  }).toString().trim().split('\n');
  const engine = new gg.Engine();
  engine.setClock(0);
  for (const f of indexes) engine.addInstance(path.basename(f, '.ggi'), readFileSync(f));
  let changed = 0;
  lines.forEach((l, i) => {
    const json = engine.askJson(l.prompt, { rerank: l.rerank });
    assert.equal(`{"id":${l.id},${json.slice(1)}`, native[i], `line ${i}`);
    const text = (a) => JSON.parse(a).evidence.map((e) => e.text).join('\n');
    if (text(json) !== text(engine.askJson(l.prompt, {}))) changed++;
  });
  assert.ok(changed >= 3, `the options change the evidence (${changed} of ${lines.length})`);
  const pushed = native.map((l) => JSON.parse(l)).filter((a) => a.route === 'push');
  assert.ok(pushed.length >= 3, 'some prompts push evidence');
});

test('bad rerank options throw invalid_argument', { skip: indexes.length < 1 && 'default indexes not built' }, () => {
  const engine = new gg.Engine();
  engine.addInstance('rnd', readFileSync(indexes[0]));
  for (const rerank of [{ ranking: ['nowhere:1:00000000'] }, { ranking: ['rnd:0:00000000'] }, { ranking: ['garbage'] },
    { weights: { depth: -1 } }, { pool: 0, weights: {} }, { weights: { tone: 1 } }, { ranking: 'rnd:1:00000000' }]) {
    assert.throws(() => engine.ask('연구수당 상한은?', { rerank }), (e) => e.code === 'invalid_argument', JSON.stringify(rerank));
  }
});
