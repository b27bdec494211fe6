#!/usr/bin/env node
'use strict';
// The `groundgate` command (npm bin). Subcommands: lib/commands.js.

// A closed pipe (`groundgate … | head`) ends the process quietly, as the native CLI does; any
// other write error (a full disk) is one line on stderr and exit 1, never a stack trace.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  process.stderr.write(`groundgate: cannot write the output: ${require('../lib/load').systemMessage(e)}\n`);
  process.exit(1);
});

require('../lib/cli')
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
