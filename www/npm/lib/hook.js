'use strict';
// `groundgate hook HOST`: prompt hooks for agent hosts. One host so far, `claude-code` (the
// UserPromptSubmit hook, lib/hook-claude-code.js). A hook never blocks the prompt: a bad flag is a
// message on stderr and exit 0 too (exit 2 would make Claude Code block the prompt).

const { parse, usage, UsageError } = require('./args');

const summary = 'Prompt hook for an agent host: `hook claude-code --index A.ggi …` (UserPromptSubmit).';
const spec = {
  index: { type: 'string', multiple: true, required: true, help: 'index files, one per instance' },
  state: { type: 'string', help: 'session dedup state directory [default: OS temp dir/groundgate-claude-code]' },
  log: { type: 'string', help: 'append each decision log line to this file (for groundgate stats)' },
  format: { type: 'string', choices: ['short', 'detailed'], default: 'short', help: 'context format' },
  server: { type: 'string', default: 'groundgate', help: 'the MCP server name the pull instruction names (1–64 letters, digits, _ or -)' },
  help: { type: 'boolean', help: 'this text' },
};
const hosts = { 'claude-code': () => require('./hook-claude-code') };
const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

async function run(argv) {
  const [host, ...rest] = argv;
  if (host === '--help' || host === '-h') {
    process.stdout.write(usage('hook claude-code', summary, spec));
    return 0;
  }
  if (host === undefined) {
    // On stderr: a UserPromptSubmit hook's stdout becomes context for the model.
    process.stderr.write(`groundgate hook: no host named (hosts: ${Object.keys(hosts).join(', ')}); the prompt goes on without groundgate\n${usage('hook claude-code', summary, spec)}`);
    return 0;
  }
  if (!Object.prototype.hasOwnProperty.call(hosts, host)) {
    process.stderr.write(`groundgate hook: unknown host '${host}'; hosts: ${Object.keys(hosts).join(', ')}\n`);
    return 0;
  }
  let a;
  try {
    const { values, positional } = parse(rest, spec, `hook ${host}`);
    if (positional.length && !values.help) throw new UsageError(`unexpected argument '${positional[0]}' (the prompt comes on stdin)`);
    a = values;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`groundgate hook ${host}: ${e.message}; the prompt goes on without groundgate\n`);
    return 0;
  }
  if (a.help) {
    process.stdout.write(usage(`hook ${host}`, summary, spec));
    return 0;
  }
  // The name goes into every tool name the pull instruction gives (mcp__NAME__search): a name
  // Claude Code gives a server, never text that could swell the output past its cap.
  if (!SERVER_NAME.test(a.server)) {
    const shown = a.server.length > 64 ? `${a.server.slice(0, 64)}…` : a.server;
    process.stderr.write(`groundgate hook ${host}: invalid --server '${shown}': an MCP server name is 1–64 letters, digits, _ or -; the prompt goes on without groundgate\n`);
    return 0;
  }
  return hosts[host]().run(a);
}

module.exports = { summary, spec, run };
