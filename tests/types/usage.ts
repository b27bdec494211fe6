// Compiled with `tsc --strict --noEmit` against pkg/node by ./build.sh test: the published types
// describe the ask contract well enough for a host to use it without `any`.
import { readFileSync } from 'node:fs';
import { Engine, Index, type Answer, type Evidence, type GroundgateError, type Hit, type IndexMeta } from '../../pkg/node/groundgate.js';

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
try {
  engine.ask('');
} catch (e) {
  const err = e as GroundgateError;
  const code: GroundgateError['code'] = err.code;
  console.log(code);
}
console.log(route, page, article, gate, hits.length, meta.chunks, json.length, Engine.rules('ko').length);
