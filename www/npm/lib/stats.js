'use strict';
// `groundgate stats`: the funnel of a decision log (`ask --jsonl` output, the hook's `--log` file),
// as the native CLI prints it (the library's `deliver::FunnelReport`). The SVG chart (`--svg`) is
// the native CLI's only.

const { parse, usage, UsageError } = require('./args');
const load = require('./load');

const summary = 'The funnel of a decision log: not relevant / relevant / sufficient / injected …';
const spec = {
  help: { type: 'boolean', help: 'this text' },
};

async function run(argv) {
  const { values: a, positional } = parse(argv, spec, 'stats');
  if (a.help) return process.stdout.write(usage('stats', summary, spec, 'LOGFILE'));
  if (positional.length !== 1) throw new UsageError('expected one LOGFILE (a JSON Lines log: `ask --jsonl` output or a hook\'s --log)');
  const text = load.readFile(positional[0]).toString('utf8');
  process.stdout.write(load.wasm().Engine.funnel(text));
}

module.exports = { summary, run };
