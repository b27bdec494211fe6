'use strict';
// `groundgate rules`: the evidence delivery rules for an agent's instructions.

const { parse, usage, UsageError } = require('./args');
const load = require('./load');

const summary = 'Print the evidence delivery rules for an agent\'s instructions.';
const spec = {
  lang: { type: 'string', default: 'en', choices: ['ko', 'en'], help: 'ko or en' },
  help: { type: 'boolean', help: 'this text' },
};

async function run(argv) {
  const { values: a, positional } = parse(argv, spec, 'rules');
  if (a.help) return process.stdout.write(usage('rules', summary, spec));
  if (positional.length) throw new UsageError(`unexpected argument '${positional[0]}' (the language is --lang ko or --lang en)`);
  process.stdout.write(load.wasm().Engine.rules(a.lang));
}

module.exports = { summary, run };
