'use strict';
// `groundgate ask`: the push pipeline over one or more indexes, as JSON Lines (byte-identical to the
// native CLI's `ask --jsonl`: each line is answered by the library, `Engine.askLine`) or readable
// text.

const { parse, integer, usage, misplaced, promptAsIndex, printable, UsageError } = require('./args');
const load = require('./load');
const jsonl = require('./jsonl');

const summary = 'Decide and deliver cited evidence for prompts (the push pipeline) over one or more indexes.';
const spec = {
  index: { type: 'string', multiple: true, required: true, help: 'index files, one per instance' },
  session: { type: 'string', help: 'session id for dedup (a JSON line\'s "session" overrides it)' },
  format: { type: 'string', choices: ['short', 'detailed'], default: 'short', help: 'context format' },
  jsonl: { type: 'boolean', help: 'read {"id","prompt","session"?,"rerank"?} lines on stdin, write one answer line each' },
  timings: { type: 'boolean', requires: 'jsonl', help: 'with --jsonl: per-prompt time on stderr at the end' },
  config: { type: 'string', help: 'engine settings (TOML file)' },
  now: { type: 'string', help: 'fix the clock at this time (ms since the epoch)' },
  help: { type: 'boolean', help: 'this text' },
};

/** Engine settings from a TOML file, read by the indexer module's TOML reader (the same crate as natively). */
function readConfig(file) {
  const text = load.readFile(file).toString('utf8');
  const indexer = require('./indexer');
  try {
    return JSON.parse(indexer.module().configFromToml(text));
  } catch (e) {
    throw load.withFile(file, e);
  }
}

async function run(argv) {
  const { values: a, positional } = parse(argv, spec, 'ask');
  if (a.help) return process.stdout.write(usage('ask', summary, spec, '[PROMPT]...'));
  misplaced('prompt', a.jsonl, positional);
  if (!a.jsonl) promptAsIndex(a.index, positional);
  const now = integer('now', a.now);
  const config = a.config === undefined ? undefined : readConfig(a.config);
  if (!a.jsonl && positional.length) load.oneShot();
  const engine = load.engine(a.index, { config, now });
  const format = a.format;
  // A session no prompt could be asked with (empty, over 256 bytes) is refused before the first
  // prompt, by the library's rule: `askLine` checks its defaults even for a blank line.
  const refused = engine.askLine('', 1, { session: a.session, format });
  if (refused !== '') throw new UsageError(`--session: ${JSON.parse(refused).error.message}`);
  if (a.jsonl) {
    const clock = new jsonl.Timings();
    const defaults = { session: a.session, format };
    await jsonl.serve((text, n) => engine.askLine(text, n, defaults), clock);
    if (a.timings) process.stderr.write(clock.summary() + '\n');
    return;
  }
  const fromStdin = !positional.length;
  const prompts = fromStdin ? await load.readStdin() : [positional.join(' ')];
  // A prompt given as arguments is asked as it is: an empty one is an error, not silence (as natively).
  if (!fromStdin && prompts[0].trim() === '') {
    throw Object.assign(new Error('invalid prompt: empty; pass the prompt after --'), { code: 'invalid_argument' });
  }
  // Prompts from stdin: a line that cannot be asked is named on stderr and the others are still
  // answered; the exit code says that one failed (as natively).
  let asked = 0;
  let failed = 0;
  for (const [n, p] of prompts.entries()) {
    if (p.trim() === '') continue;
    asked += 1;
    let answer;
    try {
      answer = engine.ask(p, { session: a.session, format });
    } catch (e) {
      if (!fromStdin) throw e;
      process.stderr.write(`groundgate: line ${n + 1}: ${printable(e && e.message ? e.message : String(e))}\n`);
      failed += 1;
      continue;
    }
    const lines = [`prompt:  ${p}`, `route:   ${answer.route} (${answer.kind})   reasons: ${answer.reasons.join(', ')}`];
    for (const l of answer.log.instances) lines.push(`  ${l.instance.padEnd(14)} ${instanceSummary(l)}`);
    if (answer.context) lines.push(answer.context);
    process.stdout.write(lines.join('\n') + '\n');
  }
  if (asked === 0) throw new Error('no prompt: give one after --, or one a line on stdin');
  if (failed > 0) throw new Error(`${failed} of ${asked} prompts not answered (named above)`);
}

/** One instance's outcome in a line, as the native CLI prints it (`InstanceLog::summary`). */
function instanceSummary(l) {
  let s = l.outcome;
  if (l.forced) s += ', forced';
  if (l.anchors.length) s += `, anchors ${l.anchors.join('/')}`;
  const g = l.gate;
  if (g) s += `, top ${g.top_score}, relevance ${g.relevance} (≥ ${g.relevance_threshold}), sufficiency ${g.sufficiency} (≥ ${g.sufficiency_threshold})`;
  if (g && g.outside_name) s += `, names ${g.outside_name} (never in the documents)`;
  return `${s}, ${l.chars}/${l.budget} chars`;
}

module.exports = { summary, run };
