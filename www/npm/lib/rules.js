'use strict';
// `groundgate rules`: the evidence delivery rules for an agent's instructions.

const { parse, usage } = require('./args');
const load = require('./load');

const summary = 'Print the evidence delivery rules for an agent\'s instructions.';
const spec = {
  lang: { type: 'string', default: 'en', help: 'ko or en' },
  help: { type: 'boolean', help: 'this text' },
};

async function run(argv) {
  const { values: a } = parse(argv, spec, 'rules');
  if (a.help) return process.stdout.write(usage('rules', summary, spec));
  process.stdout.write(load.wasm().Engine.rules(a.lang));
}

module.exports = { summary, run };
