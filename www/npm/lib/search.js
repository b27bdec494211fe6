'use strict';
// `groundgate search`: BM25 top-k with citations over one index, as JSON Lines (byte-identical to the
// native CLI's `search --jsonl`) or a readable table.

const { parse, integer, usage, UsageError } = require('./args');
const load = require('./load');
const jsonl = require('./jsonl');

const summary = 'Search an index. Queries come from the arguments, or one per stdin line.';
const spec = {
  index: { type: 'string', required: true, help: 'the index file' },
  k: { type: 'string', default: '10', help: 'hits per query' },
  jsonl: { type: 'boolean', help: 'read {"id","query"} lines on stdin, write one {"id","hits"} line each' },
  timings: { type: 'boolean', requires: 'jsonl', help: 'with --jsonl: per-query time on stderr at the end' },
  help: { type: 'boolean', help: 'this text' },
};

async function run(argv) {
  const { values: a, positional } = parse(argv, spec, 'search');
  if (a.help) return process.stdout.write(usage('search', summary, spec, '[QUERY]...'));
  const k = integer('k', a.k);
  const gg = load.wasm();
  const bytes = load.readFile(a.index);
  let index;
  try {
    index = new gg.Index(bytes);
  } catch (e) {
    throw load.withFile(a.index, e);
  }
  if (a.jsonl) {
    if (positional.length) throw new UsageError('with --jsonl the queries come from stdin, one JSON object a line');
    const clock = new jsonl.Timings();
    await load.eachStdinLine((line, n) => {
      if (line.trim() === '') return;
      const { value, error } = jsonl.parseLine(line, n);
      let out;
      if (error) out = jsonl.errorLine(null, error);
      else {
        const id = jsonl.field(value, 'id') ?? null;
        const query = jsonl.field(value, 'query');
        if (typeof query !== 'string') out = jsonl.errorLine(id, jsonl.invalid('query', 'each line needs a string "query"'));
        else {
          try {
            out = `{"id":${jsonl.idJson(id)},"hits":${clock.time(() => index.searchJson(query, k))}}`;
          } catch (e) {
            out = jsonl.errorLine(id, e);
          }
        }
      }
      process.stdout.write(out + '\n');
    });
    if (a.timings) process.stderr.write(clock.summary() + '\n');
    return;
  }
  const queries = positional.length ? [positional.join(' ')] : await load.readStdin();
  for (const q of queries.filter((q) => q.trim() !== '')) {
    const lines = [`query: ${q}`];
    const hits = index.search(q, k);
    if (!hits.length) lines.push('  (no hits)');
    for (const h of hits) {
      lines.push(`${String(h.rank).padStart(3)}. ${h.score.toFixed(3).padStart(7)}  ${h.source}  ${location(h)}`);
      lines.push(`     ${[...h.text.replaceAll('\n', ' ')].slice(0, 110).join('')}`);
    }
    process.stdout.write(lines.join('\n') + '\n');
  }
}

function location(h) {
  const parts = [];
  if (h.page != null) parts.push(`p.${h.page}`);
  if (h.article != null) parts.push(h.article);
  if (h.section != null) parts.push(`§${h.section}`);
  if (h.heading != null) parts.push(`“${h.heading}”`);
  if (h.date != null) parts.push(`[${h.date}]`);
  return parts.join(' ');
}

module.exports = { summary, run };
