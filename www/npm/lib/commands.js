'use strict';
// The subcommand table of the `groundgate` bin: name → the module that runs it. Each module exports
// `summary` (one line for `groundgate --help`) and `async run(argv)`; it is required only when its
// command runs, so adding one costs the others nothing. To add a command, add its file under lib/
// and one line here.

module.exports = {
  ask: () => require('./ask'),
  search: () => require('./search'),
  rules: () => require('./rules'),
  mcp: () => require('./mcp'),
  build: () => require('./build'),
};
