'use strict';
// The `groundgate` bin: picks the subcommand from lib/commands.js and turns failures into a message
// on stderr and an exit code — 1 for a failed command, 2 for bad usage (the native CLI's convention)
// — never a stack trace (set GROUNDGATE_DEBUG=1 to see one).

const commands = require('./commands');
const { UsageError, printable } = require('./args');

function version() {
  return require('../package.json').version;
}

function help() {
  const lines = [
    'groundgate — push-or-pull evidence gate: compact Korean-aware BM25 indexes for LLM prompts',
    '',
    'usage: groundgate <command> [options]      (groundgate <command> --help for its options)',
    '',
    'commands:',
  ];
  for (const [name, load] of Object.entries(commands)) lines.push(`  ${name.padEnd(10)} ${load().summary}`);
  return lines.join('\n') + '\n';
}

async function main(argv) {
  let [name, ...rest] = argv;
  // `groundgate help ask` is `groundgate ask --help`, as the native CLI has it.
  if (name === 'help' && rest.length === 1 && Object.prototype.hasOwnProperty.call(commands, rest[0])) [name, rest] = [rest[0], ['--help']];
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(help());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V') {
    process.stdout.write(`groundgate ${version()}\n`);
    return 0;
  }
  const command = Object.prototype.hasOwnProperty.call(commands, name) ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(`groundgate: unknown command '${name}'; commands: ${Object.keys(commands).join(', ')}\n`);
    return 2;
  }
  try {
    const code = await command().run(rest);
    return typeof code === 'number' ? code : 0;
  } catch (e) {
    if (process.env.GROUNDGATE_DEBUG) process.stderr.write(`${e && e.stack}\n`);
    if (e instanceof UsageError) {
      process.stderr.write(`groundgate ${name}: ${e.message}\n(groundgate ${name} --help lists the options)\n`);
      return 2;
    }
    process.stderr.write(`groundgate: ${printable(e && e.message ? e.message : String(e))}\n`);
    return 1;
  }
}

module.exports = { main, help };
