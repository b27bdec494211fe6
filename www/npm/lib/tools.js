'use strict';
// `groundgate search|grep|sources|read|links|tool|tools`: the pull tools over one or more indexes,
// as readable text or JSON Lines, with the native CLI's flags and bytes (docs/tools.md). Conversion
// only: a call is `engine.callToolJson` (the Rust module src/tools), a JSON line `engine.toolLine`
// (src/protocol.rs); `search --jsonl` over one index without `--tool` keeps its historic
// `{"id","hits"}` contract (`Index.searchLine`).

const { parse, integer, usage, misplaced, missing, count, UsageError } = require('./args');
const load = require('./load');
const jsonl = require('./jsonl');

const common = {
  index: { type: 'string', multiple: true, repeat: true, required: true, help: 'index files, one per instance; repeat --index' },
  jsonl: { type: 'boolean', help: 'read JSON lines on stdin (the tool\'s arguments, plus "id"), write one line each' },
  timings: { type: 'boolean', requires: 'jsonl', help: 'with --jsonl: per-call time on stderr at the end' },
  help: { type: 'boolean', help: 'this text' },
};
const str = (help) => ({ type: 'string', help });
// Every numeric flag is a u32 natively: the same largest value here.
const num = (help) => ({ type: 'string', help, integer: true, max: 4294967295 });

/** Each tool command: its summary, extra flags, positional words (joined into one argument). */
const TOOLS = {
  search: {
    summary: 'Search one or more indexes (BM25, merged); queries from the arguments or JSON lines.',
    flags: {
      // 1000: the library's `search::MAX_K`, the one-index `{"id","hits"}` lines' limit (the widest).
      k: { ...num('results per query (tool: default 5, at most 50; one-index --jsonl without --tool: default 10, at most 1000)'), min: 1, max: 1000 },
      instance: str('search only this instance'),
      detailed: { type: 'boolean', help: 'add chunk ids, references (ref), scores and matched terms' },
      fuse: { type: 'string', multiple: true, repeat: true, list: true, value: 'REF', help: 'a ranking of your own to fuse by RRF: chunk references instance:chunk:crc32 (the ref of search --detailed), best first; repeat or separate with commas' },
      'fuse-k': { ...num('the RRF constant for --fuse (default 60)'), requires: 'fuse' },
      tool: { type: 'boolean', requires: 'jsonl', help: 'with --jsonl: the tool contract even for one index' },
    },
    words: 'query',
  },
  grep: {
    summary: 'Find an exact phrase (after normalisation) in one or more indexes; matches marked « ».',
    flags: { instance: str('search only this instance'), limit: num('most matches'), detailed: { type: 'boolean', help: 'add chunk ids and the number of chunks checked' } },
    words: 'text',
  },
  sources: {
    summary: 'List the sources of one or more indexes with their locations.',
    flags: { instance: str('only this instance'), offset: num('skip this many sources: the next page of a long list (the previous page says where)') },
  },
  read: {
    summary: 'Read the text at a location (page, article, heading or chunk) of a source, with its citation.',
    flags: { instance: str('instance name'), source: str('source id'), page: num('printed page'), article: str('article (제10조 or 10)'), heading: str('heading'), chunk: num('chunk id'), around: num('neighbouring chunks on each side (0–5)') },
  },
  links: { summary: 'A source\'s links, resolved to sources of the loaded indexes where they name one.', flags: { instance: str('instance name'), source: str('source id') } },
  tool: { summary: 'Serve {"id","tool","arguments"} JSON lines on stdin (any tool), one reply line each.', flags: {} },
};

function command(name) {
  const t = TOOLS[name];
  const spec = { ...common, ...t.flags };
  async function run(argv) {
    const { values: v, positional } = parse(argv, spec, name);
    if (v.help) return process.stdout.write(usage(name, t.summary, spec, t.words ? `[${t.words.toUpperCase()}]...` : ''));
    if (positional.length && !t.words) throw new UsageError(`unexpected argument '${positional[0]}'`);
    if (t.words) {
      misplaced(t.words, v.jsonl, positional);
      missing(t.words, v.jsonl, positional);
    }
    if (v.fuse && v.jsonl) throw new UsageError("the argument '--fuse' cannot be used with '--jsonl'");
    // A source to read or follow, unless each JSON line names its own (as natively).
    if ('source' in t.flags && !v.jsonl && v.source === undefined) {
      throw new UsageError(`the argument '--source' is required for 'groundgate ${name}' (or give each line's source with --jsonl)`);
    }
    const args = {};
    if (t.words && positional.length) args[t.words] = positional.join(' ');
    // A one-off call compiles the wasm for one run (before the first `load.wasm()`, which the
    // range check below makes).
    if (!v.jsonl && name !== 'tool') load.oneShot();
    const historic = name === 'search' && v.jsonl && !v.tool && v.index.length === 1;
    // A number past the tool's own range is refused here, before any line is read (not once per
    // line): the range its input schema gives (the historic lines' k: the flag's own).
    const schema = name === 'tool' ? {} : load.wasm().Engine.toolDefinitions().find((d) => d.name === name).inputSchema.properties;
    for (const [flag, opt] of Object.entries(t.flags)) {
      if (flag === 'tool' || v[flag] === undefined || v[flag] === false) continue;
      const key = flag.replace('-', '_');
      const range = schema[key] && !(historic && key === 'k') ? schema[key] : {};
      // `--fuse a,b --fuse c` → ["a", "b", "c"]; `--fuse-k` → fuse_k, as natively.
      const value = opt.list
        ? v[flag].flatMap((x) => x.split(','))
        : opt.integer
          ? integer(flag, v[flag], Math.min(opt.max, range.maximum ?? opt.max), Math.max(opt.min ?? 0, range.minimum ?? 0))
          : v[flag];
      args[key] = value;
    }
    if (historic) {
      // The historic `{"id","hits"}` lines have no instance to choose and no detail (as natively).
      const flag = v.instance !== undefined ? '--instance' : v.detailed ? '--detailed' : null;
      if (flag) throw new UsageError(`${flag} is not part of the one-index \`{"id","hits"}\` lines: add --tool for the search tool's lines`);
      return legacySearch(v.index[0], args.k ?? 10, v.timings);
    }
    const engine = load.engine(v.index);
    if (name === 'tool') {
      const clock = new jsonl.Timings();
      await jsonl.serveHandleLine(engine, clock);
      if (v.timings) process.stderr.write(clock.summary() + '\n');
      return;
    }
    if (v.jsonl) {
      const clock = new jsonl.Timings();
      const defaults = { tool: name, arguments: args };
      await jsonl.serve((text, n) => engine.toolLine(text, n, defaults), clock);
      if (v.timings) process.stderr.write(clock.summary() + '\n');
      return;
    }
    process.stdout.write(human(name, JSON.parse(engine.callToolJson(name, jsonl.idJson(args)))));
  }
  return { summary: t.summary, run };
}

/** `search --jsonl` over one index: `{"id","query"}` → `{"id","hits"}` (the historic contract). */
async function legacySearch(file, k, timings) {
  const gg = load.wasm();
  let index;
  try {
    index = new gg.Index(load.readFile(file));
    index.verify(); // as the native CLI does: an altered file is refused, never served
  } catch (e) {
    throw load.withFile(file, e);
  }
  const clock = new jsonl.Timings();
  await jsonl.serve((text, n) => index.searchLine(text, n, k), clock);
  if (timings) process.stderr.write(clock.summary() + '\n');
}

/** `groundgate tools`: the definitions, as the native CLI prints them. */
const definitions = {
  summary: 'Print the tools\' definitions (name, title, description, JSON Schemas, annotations).',
  async run(argv) {
    const spec = { help: { type: 'boolean', help: 'this text' } };
    const { values, positional } = parse(argv, spec, 'tools');
    if (values.help) return process.stdout.write(usage('tools', definitions.summary, spec));
    if (positional.length) throw new UsageError(`unexpected argument '${positional[0]}'`);
    process.stdout.write(JSON.stringify(load.wasm().Engine.toolDefinitions(), null, 2) + '\n');
  },
};

const s = (v, k) => (v && typeof v[k] === 'string' ? v[k] : '');
const items = (v, k) => (v && Array.isArray(v[k]) ? v[k] : []);
const snippet = (text, n) => [...text.replaceAll('\n', ' ')].slice(0, n).join('');

function location(v) {
  const parts = [];
  if (Number.isInteger(v.page) && v.page >= 0) parts.push(`p.${v.page}`);
  if (typeof v.article === 'string') parts.push(v.article);
  if (typeof v.section === 'string') parts.push(`§${v.section}`);
  if (typeof v.heading === 'string') parts.push(`“${v.heading}”`);
  if (typeof v.date === 'string') parts.push(`[${v.date}]`);
  return parts.join(' ');
}

/** A float as serde_json prints an f64 (14 → "14.0"). */
function f64(v) {
  return typeof v === 'number' && Number.isInteger(v) ? v.toFixed(1) : String(v);
}

/** The readable text of a tool result (the native CLI's layout). */
function human(name, r) {
  const out = [];
  if (name === 'search') {
    out.push(`query: ${s(r, 'query')}   (instances: ${items(r, 'instances').join(', ')})`);
    if (!items(r, 'results').length) out.push('  (no hits)');
    for (const h of items(r, 'results')) {
      out.push(`${String(h.rank ?? 0).padStart(3)}. ${s(h, 'instance')}  ${s(h, 'source')}  ${location(h)}`);
      // Detailed: the reference (what --fuse takes) and the scores, printed as serde_json does.
      if (typeof h.ref === 'string') out.push(`     ref ${h.ref}  score ${f64(h.score)}  bm25 ${f64(h.bm25)}`);
      out.push(`     ${snippet(s(h, 'text'), 110)}`);
    }
  } else if (name === 'grep') {
    const total = r.total ?? 0;
    const shown = items(r, 'matches').length;
    out.push(`text: ${s(r, 'text')}   (${count(total, 'matching chunk')}${shown < total ? `, ${shown} shown` : ''})`);
    for (const m of items(r, 'matches')) {
      out.push(`  ${s(m, 'instance')}  ${s(m, 'source')}  ${location(m)}`);
      const text = [...s(m, 'text')];
      const at = Math.max(text.indexOf('«'), 0);
      out.push(`     ${text.slice(Math.max(at - 50, 0), Math.min(at + 110, text.length)).join('').replaceAll('\n', ' ')}`);
    }
  } else if (name === 'sources') {
    for (const e of items(r, 'sources')) {
      const pages = Array.isArray(e.pages) && e.pages.length === 2 ? ` pp.${e.pages[0]}–${e.pages[1]}` : '';
      const arts = items(e, 'articles').length + (e.articles_more ?? 0);
      const heads = items(e, 'headings').length + (e.headings_more ?? 0);
      out.push(`${s(e, 'instance').padEnd(14)} ${s(e, 'source').padEnd(28)} ${s(e, 'title')} [${s(e, 'kind')}] ${count(e.chunks ?? 0, 'chunk')}${pages} ${count(arts, 'article')} ${count(heads, 'heading')}`);
    }
  } else if (name === 'read') {
    out.push(`${s(r, 'instance')} · ${s(r, 'source')} · ${s(r, 'title')}  ${location(r)}`);
    for (const p of items(r, 'before')) out.push(`  (before, chunk ${p.chunk}) ${snippet(s(p, 'text'), 200)}`);
    out.push(s(r, 'text'));
    for (const p of items(r, 'after')) out.push(`  (after, chunk ${p.chunk}) ${snippet(s(p, 'text'), 200)}`);
  } else if (name === 'links') {
    out.push(`${s(r, 'instance')} · ${s(r, 'source')} · ${s(r, 'title')}`);
    if (!items(r, 'links').length) out.push('  (no links)');
    for (const l of items(r, 'links')) {
      const to = items(l, 'resolved').map((t) => `${s(t, 'instance')}/${s(t, 'source')}`);
      out.push(`  ${s(l, 'link')}${to.length ? `  → ${to.join(', ')}` : ''}`);
    }
  } else out.push(JSON.stringify(r));
  // `grep` prints its counts above; the others say what was cut.
  // `sources` shows the lists' lengths, never cut here: only sources left out are news.
  const more = Number.isInteger(r.sources_more) ? r.sources_more : 0;
  if (more > 0) out.push(`(${count(more, 'more source')}: the next page is --offset ${Number.isInteger(r.next_offset) ? r.next_offset : 0})`);
  else if (r.truncated === true && name !== 'grep' && name !== 'sources') {
    out.push('(truncated: a result is capped at 8,000 characters; the rest was left out)');
  }
  return out.join('\n') + '\n';
}


module.exports = { command, definitions, human, TOOLS };
