'use strict';
// The subcommand table of the `groundgate` bin: name → the module that runs it. Each module exports
// `summary` (one line for `groundgate --help`) and `async run(argv)`; it is required only when its
// command runs, so adding one costs the others nothing. To add a command, add its file under lib/
// and one line here.

module.exports = {
  ask: () => require('./ask'),
  search: () => require('./tools').command('search'),
  grep: () => require('./tools').command('grep'),
  sources: () => require('./tools').command('sources'),
  read: () => require('./tools').command('read'),
  links: () => require('./tools').command('links'),
  tool: () => require('./tools').command('tool'),
  tools: () => require('./tools').definitions,
  rules: () => require('./rules'),
  stats: () => require('./stats'),
  build: () => require('./build'),
  mcp: () => require('./mcp'),
  hook: () => require('./hook'),
  init: () => require('./init'),
};
