// REBEL through a host's model from JS (docs/rerank.md): Engine.rebelPrompt / rebelCriteriaPrompt /
// rerankWith against the recorded replies of tests/data/rebel (two malformed), the parsed order
// applied before the budget by ask's rerank mode "order" (byte-identical to the native CLI), RRF of
// host lists (Engine.rrf) and the search tool's fuse (byte-identical to the CLI), and hostile
// arguments: typed invalid_argument errors, never a trap, the engine unharmed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const gg = createRequire(import.meta.url)(path.join(root, 'pkg/node/groundgate.js'));
const cli = path.join(root, 'target/release/groundgate');
const fixture = path.join(root, 'tests/fixtures/v3/excerpts.ggi');
const reply = (name) => readFileSync(path.join(root, 'tests/data/rebel', name), 'utf8');
const query = '기술료 납부 기한';
// The weights the recorded one-turn replies were written for (tests/data/rebel/README.md).
const weights = { depth: 1, diversity: 1, clarity: 1, authority: 0.5, recency: 0.5 };

function engine() {
  const e = new gg.Engine();
  e.setClock(0);
  e.addInstance('excerpts', readFileSync(fixture));
  return e;
}

test('the one-turn prompt holds the search results with their references', () => {
  const e = engine();
  const p = e.rebelPrompt({ query, k: 4, weights });
  assert.equal(p.query, query);
  assert.equal(p.lang, 'ko');
  assert.deepEqual(p.criteria.map((c) => [c.name, c.weight]), Object.entries(weights));
  assert.deepEqual(p.docs.map((d) => d.id), [1, 2, 3, 4]);
  // The documents are the search tool's results, with the same references.
  const s = e.searchTool({ query, k: 4, detailed: true });
  assert.deepEqual(p.docs.map((d) => d.ref), s.results.map((r) => r.ref));
  assert.deepEqual(p.docs.map((d) => d.text), s.results.map((r) => r.text));
  assert.match(p.prompt, /^당신은 검색 시스템이/);
  assert.equal(p.prompt.match(/<doc id=/g).length, 4);
  assert.ok(p.prompt.includes('final = relevance + 1·depth + 1·diversity + 1·clarity + 0.5·authority + 0.5·recency.'));
  assert.ok(p.prompt.includes(`질의: ${query}`));
  const en = e.rebelPrompt({ query, k: 2, lang: 'en' });
  assert.match(en.prompt, /^You rerank the documents/);
  assert.equal(en.docs.length, 2);
});

test('recorded replies: applied by the composite groundgate computes; malformed ones rejected by kind', () => {
  const e = engine();
  const p = e.rebelPrompt({ query, k: 4, weights });
  const r1 = e.rerankWith(p, reply('reply_1_one_turn_ko.txt'));
  assert.deepEqual(r1.items.map((d) => [d.id, d.score]), [[1, 22], [2, 19.5], [3, 9], [4, 6]]);
  assert.deepEqual(r1.ranking, p.docs.map((d) => d.ref));
  // Reply 2 lists [1] first with final=20, but its own scores make [2] 21.5 and [1] 18.
  const r2 = e.rerankWith(p, reply('reply_2_one_turn_ko_order.txt'));
  assert.deepEqual(r2.items.map((d) => d.id), [2, 1, 3, 4]);
  assert.deepEqual(r2.ranking, [1, 0, 2, 3].map((i) => p.docs[i].ref));
  const top = r2.items[0];
  assert.equal(top.rank, 1);
  assert.deepEqual(top.scores, { authority: 5, clarity: 4, depth: 2, diversity: 4, recency: 4 });
  // Citation and text untouched.
  const { rank, relevance, scores, score, ...doc } = top;
  assert.deepEqual(doc, p.docs[1]);
  for (const [file, kind] of [['reply_5_truncated.txt', 'unclosed'], ['reply_6_out_of_range.txt', 'out_of_range']]) {
    assert.throws(() => e.rerankWith(p, reply(file)), (err) => err.code === 'invalid_argument' && err.message.includes(`reply: ${kind}: `), file);
  }
});

test('the same prompt and reranking natively: groundgate rebel --json', () => {
  const e = engine();
  const native = (extra) => JSON.parse(execFileSync(cli, ['rebel', '--index', fixture, '--json', '--k', '4', ...extra, '--', query]).toString());
  const w = ['--weights', JSON.stringify(weights)];
  const p = e.rebelPrompt({ query, k: 4, lang: 'ko', weights });
  assert.deepEqual(native(w), p);
  const file = path.join(root, 'tests/data/rebel/reply_2_one_turn_ko_order.txt');
  assert.deepEqual(native([...w, '--reply', file]), e.rerankWith(p, reply('reply_2_one_turn_ko_order.txt')));
  const turn1 = path.join(root, 'tests/data/rebel/reply_3_two_turn_1.txt');
  const p2 = e.rebelPrompt({ query, k: 4, lang: 'ko', criteria_reply: reply('reply_3_two_turn_1.txt') });
  assert.deepEqual(native(['--criteria', turn1]), p2);
  const turn2 = path.join(root, 'tests/data/rebel/reply_4_two_turn_2.txt');
  assert.deepEqual(native(['--criteria', turn1, '--reply', turn2]), e.rerankWith(p2, reply('reply_4_two_turn_2.txt')));
});

test('two turns: the criteria prompt, then the rerank prompt from the turn-1 reply', () => {
  const e = engine();
  const t1 = gg.Engine.rebelCriteriaPrompt({ query });
  assert.equal(t1, readFileSync(path.join(root, 'tests/data/rebel/prompt_two_turn_1_ko.txt'), 'utf8'));
  const p = e.rebelPrompt({ query, k: 4, criteria_reply: reply('reply_3_two_turn_1.txt') });
  assert.deepEqual(p.criteria.map((c) => [c.name, c.weight]), [['deadline_specificity', 1], ['legal_basis', 0.6], ['procedure', 0.4]]);
  assert.ok(p.prompt.includes('[id] relevance=R deadline_specificity=S legal_basis=S procedure=S'));
  const r = e.rerankWith(p, reply('reply_4_two_turn_2.txt'));
  assert.deepEqual(r.items.map((d) => [d.id, d.score]), [[2, 10.4], [1, 8.2], [3, 2.4], [4, 1]]);
  // A one-turn reply does not fit the two-turn prompt's criteria.
  assert.throws(() => e.rerankWith(p, reply('reply_1_one_turn_ko.txt')), (err) => err.code === 'invalid_argument' && /unknown_score/.test(err.message));
  // A malformed turn-1 reply is rejected when the turn-2 prompt is built.
  assert.throws(() => e.rebelPrompt({ query, criteria_reply: '<criteria>\nDeadline | 1 | x\n</criteria>' }), (err) => err.code === 'invalid_argument' && /criteria_reply: malformed/.test(err.message));
});

test('the parsed order applied before the budget: ask rerank mode "order", as natively', () => {
  const e = engine();
  const p = e.rebelPrompt({ query, k: 4, weights });
  const { ranking } = e.rerankWith(p, reply('reply_2_one_turn_ko_order.txt'));
  const prompt = '기술료 납부 기한은 언제인가요?';
  const plain = e.ask(prompt, { now_ms: 0 });
  assert.equal(plain.route, 'push');
  const ordered = e.ask(prompt, { now_ms: 0, format: 'detailed', rerank: { ranking, mode: 'order' } });
  assert.equal(ordered.route, plain.route, 'the order changes what is injected, not the verdict');
  const first = p.docs.find((d) => d.ref === ranking[0]);
  // The host's first chunk leads the evidence (whole, or its best passage when the hits share the budget).
  assert.ok(first.text.includes(ordered.evidence[0].text), ordered.evidence[0].text);
  assert.notEqual(ordered.evidence[0].text, plain.evidence[0].text);
  assert.match(ordered.evidence[0].rerank, /^rerank: host order \(bm25 #\d+, host #1\)$/);
  // The same bytes natively (ask --jsonl with a rerank field).
  const opts = { format: 'detailed', rerank: { ranking, mode: 'order' } };
  const native = execFileSync(cli, ['ask', '--now', '0', '--format', 'detailed', '--index', fixture, '--jsonl'], {
    input: `${JSON.stringify({ id: 1, prompt, rerank: opts.rerank })}\n`,
  }).toString().trim();
  assert.equal(`{"id":1,${e.askJson(prompt, { now_ms: 0, ...opts }).slice(1)}`, native);
  // "order" with composite weights is contradictory.
  assert.throws(() => e.ask(prompt, { rerank: { ranking, mode: 'order', weights: { depth: 1 } } }), (err) => err.code === 'invalid_argument' && /rerank\.mode/.test(err.message));
  assert.throws(() => e.ask(prompt, { rerank: { ranking, mode: 'first' } }), (err) => err.code === 'invalid_argument');
});

test('RRF: Engine.rrf of host lists, and the search tool fusing a host ranking as natively', () => {
  const fused = gg.Engine.rrf({ lists: [['a:1:00000001', 'a:2:00000002'], ['a:2:00000002', 'b:7:0000000f']], k: 60 });
  assert.deepEqual(fused.map((f) => f.ref), ['a:2:00000002', 'a:1:00000001', 'b:7:0000000f']);
  assert.equal(fused[0].score, Math.round((1 / 62 + 1 / 61) * 1e6) / 1e6);
  assert.deepEqual(fused[2].ranks, [null, 2]);
  const e = engine();
  const refs = e.searchTool({ query: '연구개발비 정산', k: 6, detailed: true }).results.map((r) => r.ref);
  assert.ok(refs.length >= 3);
  const args = { query, k: 5, detailed: true, fuse: [refs[2], refs[0]], fuse_k: 10 };
  const json = e.callToolJson('search', JSON.stringify(args));
  const native = execFileSync(cli, ['tool', '--index', fixture, '--jsonl'], { input: `${JSON.stringify({ id: 0, tool: 'search', arguments: args })}\n` }).toString().trim();
  assert.equal(native, `{"id":0,"result":${json}}`);
  const got = JSON.parse(json).results.map((r) => r.ref);
  assert.ok(got.includes(refs[2]), 'the host\'s first joins the results');
  assert.deepEqual(e.searchTool(args), JSON.parse(json));
});

test('hostile arguments: typed invalid_argument errors, no trap, the engine keeps working', () => {
  const e = engine();
  const p = e.rebelPrompt({ query, k: 2 });
  const good = `<ranking>\n[2] relevance=5 depth=1 diversity=1 clarity=1 authority=1 recency=1\n[1] relevance=4 depth=1 diversity=1 clarity=1 authority=1 recency=1\n</ranking>`;
  const cyclic = {};
  cyclic.self = cyclic;
  const calls = [
    () => e.rebelPrompt(),
    () => e.rebelPrompt(42),
    () => e.rebelPrompt('기술료'),
    () => e.rebelPrompt({ query: 5 }),
    () => e.rebelPrompt({ query: '' }),
    () => e.rebelPrompt({ query, k: 0 }),
    () => e.rebelPrompt({ query, k: 1.5 }),
    () => e.rebelPrompt({ query, lang: 'fr' }),
    () => e.rebelPrompt({ query, instance: 'nowhere' }),
    () => e.rebelPrompt({ query, weights: { depth: -1 } }),
    () => e.rebelPrompt({ query, surprise: true }),
    () => e.rebelPrompt(cyclic),
    () => e.rebelPrompt({ query: 10n }),
    () => gg.Engine.rebelCriteriaPrompt(),
    () => gg.Engine.rebelCriteriaPrompt({ query, lang: 3 }),
    () => e.rerankWith(),
    () => e.rerankWith(p),
    () => e.rerankWith(p, 42),
    () => e.rerankWith(undefined, good),
    () => e.rerankWith('prompt', good),
    () => e.rerankWith({ ...p, docs: 'x' }, good),
    () => e.rerankWith({ ...p, docs: [] }, good),
    () => e.rerankWith({ ...p, docs: [p.docs[1], p.docs[0]] }, good),
    () => e.rerankWith({ ...p, docs: p.docs.map((d) => ({ ...d, ref: d.ref.replace(/:[0-9a-f]{8}$/, ':00000000') })) }, good),
    () => e.rerankWith({ ...p, criteria: [{ name: 'relevance', weight: 1, definition: 'x' }] }, good),
    () => e.rerankWith(p, good.replace('[2]', '[3]')),
    () => e.rerankWith(p, good.replace('[2]', '[1]')),
    () => e.rerankWith(p, good.replace('depth=1 ', '')),
    () => e.rerankWith(p, good.replace('relevance=5', 'relevance=50')),
    () => e.rerankWith(p, good.replace('</ranking>', '')),
    () => e.rerankWith(p, ''),
    () => gg.Engine.rrf(),
    () => gg.Engine.rrf({ lists: [] }),
    () => gg.Engine.rrf({ lists: [['nope']] }),
    () => gg.Engine.rrf({ lists: [['a:1:00000001']], k: -1 }),
    () => gg.Engine.rrf({ lists: [['a:1:00000001', 'a:1:00000001']] }),
    () => e.searchTool({ query, fuse: ['excerpts:99999:00000000'] }),
    () => e.searchTool({ query, fuse: 'excerpts:1:00000000' }),
    () => e.searchTool({ query, fuse_k: 3 }),
  ];
  calls.forEach((call, i) => {
    assert.throws(call, (err) => err instanceof Error && err.code === 'invalid_argument' && err.message.length > 10, `call ${i}: ${call}`);
  });
  // Unharmed: the same prompt and reply still work.
  assert.deepEqual(e.rerankWith(p, good).items.map((d) => d.id), [2, 1]);
  assert.deepEqual(e.rebelPrompt({ query, k: 2 }), p);
  // A prompt from an index that was unloaded since: its references name no loaded instance.
  e.removeInstance('excerpts');
  assert.throws(() => e.rerankWith(p, good), (err) => err.code === 'invalid_argument' && /no instance/.test(err.message));
});
