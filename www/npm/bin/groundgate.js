#!/usr/bin/env node
'use strict';
// The `groundgate` command (npm bin). Subcommands: lib/commands.js.

// A closed pipe (`groundgate … | head`) ends the process quietly, as the native CLI does.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

require('../lib/cli')
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
