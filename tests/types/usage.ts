// Compiled with `tsc --strict --noEmit` against pkg/node by ./build.sh test: the published types
// describe the ask contract well enough for a host to use it without `any`.
import { readFileSync } from 'node:fs';
import {
  Engine, Index, type Answer, type Evidence, type FusedRef, type GroundgateError, type Hit, type IndexMeta, type RebelPrompt,
  type Reranked, type SearchResult,
} from '../../pkg/node/groundgate.js';

const engine = new Engine({ total_budget: 3000, top_k: 4 });
const bytes = readFileSync('indexes/constitution.ggi');
engine.addInstance('constitution', bytes, { sufficiency: 5 });
engine.addInstance('again', bytes);
const a: Answer = engine.ask('헌법에서 농지 소작을 금지하나요?', { session: 's', format: 'detailed' });
const route: 'push' | 'pull' | 'skip' = a.route;
const first: Evidence | undefined = a.evidence[0];
const page: number | null | undefined = first?.page;
const article: string | null | undefined = first?.article;
const gate = a.log.instances[0]?.gate?.relevance;
const hits: Hit[] = engine.search('constitution', '대통령 임기', 3);
const meta: IndexMeta = new Index(bytes).info();
const json: string = engine.askJson('대통령 임기');
// A host's own --jsonl loop: the defaults may be left out.
const line: string = engine.askLine('{"id":1,"prompt":"대통령 임기"}', 1) + engine.toolLine('{"id":2,"tool":"sources"}', 2);
try {
  engine.ask('');
} catch (e) {
  const err = e as GroundgateError;
  const code: GroundgateError['code'] = err.code;
  console.log(code);
}
console.log(route, page, article, gate, hits.length, meta.chunks, json.length, Engine.rules('ko').length);
// REBEL through the host's model, applied before the budget; RRF (docs/rerank.md).
const rp: RebelPrompt = engine.rebelPrompt({ query: '대통령 임기', k: 4, lang: 'ko', weights: { diversity: 1 } });
const turn1: string = Engine.rebelCriteriaPrompt({ query: '대통령 임기', lang: 'en' });
const reranked: Reranked = engine.rerankWith(rp, '<ranking>\n[1] relevance=9 depth=1 diversity=1 clarity=1 authority=1 recency=1\n</ranking>');
const best: string | undefined = reranked.items[0]?.ref;
const ordered: Answer = engine.ask('대통령 임기는?', { rerank: { ranking: reranked.ranking, mode: 'order' } });
const fused: FusedRef[] = Engine.rrf({ lists: [reranked.ranking, rp.docs.map((d) => d.ref)], k: 60 });
const sr: SearchResult = engine.searchTool({ query: '대통령 임기', detailed: true, fuse: fused.map((f) => f.ref), fuse_k: 60 });
console.log(turn1.length, best, ordered.route, sr.results[0]?.ref);
