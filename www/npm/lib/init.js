'use strict';
// `groundgate init claude-code`: set up a project for Claude Code — the UserPromptSubmit hook in
// .claude/settings.json and the groundgate MCP server in .mcp.json, merged into what the files
// already hold. Both are files a team commits: a path inside the project (the package in its
// node_modules, its indexes, the log) is written relative to it — `"$CLAUDE_PROJECT_DIR"/…` in the
// hook's command, relative in .mcp.json (Claude Code starts the server in the project) — and Node is
// `node` on the PATH; a path outside stays absolute. `--print` shows them instead, with the
// equivalent `claude mcp add` line.

const fs = require('node:fs');
const path = require('node:path');
const { parse, usage, UsageError } = require('./args');

const summary = 'Set up a project for a host: `init claude-code --index A.ggi …` (hook + MCP server).';
const spec = {
  index: { type: 'string', multiple: true, required: true, help: 'index files, one per instance' },
  project: { type: 'string', default: '.', help: 'the project directory' },
  state: { type: 'string', help: 'the hook\'s session state directory' },
  log: { type: 'string', help: 'the hook\'s decision log file' },
  timeout: { type: 'string', default: '10', help: 'the hook\'s timeout in seconds' },
  print: { type: 'boolean', help: 'print the settings instead of writing them' },
  help: { type: 'boolean', help: 'this text' },
};

/** Quote a word for the shell Claude Code runs hook commands with. */
function shellQuote(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** This package's bin: the project's own copy when it has one (node_modules), else this one. */
function binFile(project) {
  const local = path.join(project, 'node_modules', 'groundgate', 'bin', 'groundgate.js');
  return fs.existsSync(local) ? local : path.resolve(__dirname, '..', 'bin', 'groundgate.js');
}

/** `file` relative to `project` (`/`-separated) when it lies inside it, else null. */
function inside(file, project) {
  const rel = path.relative(project, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : null;
}

/** A path as a word of the hook's shell command: `"$CLAUDE_PROJECT_DIR"/…` inside the project. */
function hookPath(file, project) {
  const rel = inside(file, project);
  return rel === null ? shellQuote(file) : `"$CLAUDE_PROJECT_DIR"/${shellQuote(rel)}`;
}

/** A path in .mcp.json's args: relative inside the project (the server starts there). */
function mcpPath(file, project) {
  return inside(file, project) ?? file;
}

/** A groundgate hook command (a second init replaces it, and only it). */
const OURS = /groundgate(\.js)?['"]?\s+hook\s+claude-code(\s|$)/;

/** The UserPromptSubmit groups without groundgate's own hook commands (a group left empty goes). */
function withoutOurs(groups) {
  return groups
    .map((g) => (Array.isArray(g?.hooks) ? { ...g, hooks: g.hooks.filter((h) => !(typeof h?.command === 'string' && OURS.test(h.command))) } : g))
    .filter((g) => !Array.isArray(g?.hooks) || g.hooks.length > 0);
}

/** The settings for `indexes` (absolute paths) in `project`: {settings entry, mcp server, claude mcp add line}. */
function plan({ indexes, state, log, timeout, project }) {
  const bin = binFile(project);
  const words = ['node', hookPath(bin, project), 'hook', 'claude-code', ...indexes.flatMap((f) => ['--index', hookPath(f, project)])];
  if (state) words.push('--state', hookPath(state, project));
  if (log) words.push('--log', hookPath(log, project));
  const hook = { type: 'command', command: words.join(' '), timeout };
  const server = { command: 'node', args: [mcpPath(bin, project), 'mcp', ...indexes.flatMap((f) => ['--index', mcpPath(f, project)])] };
  // `claude mcp add` keeps the server in the user's own config: absolute paths.
  const mcpAdd = ['claude', 'mcp', 'add', 'groundgate', '--', 'node', bin, 'mcp', ...indexes.flatMap((f) => ['--index', f])].map(shellQuote).join(' ');
  return { hook, server, mcpAdd };
}

function readJson(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if (e.code === 'ENOENT') return {};
    throw new Error(`${file}: ${e.message}`);
  }
  try {
    const v = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v;
  } catch {
    // reported below
  }
  throw new Error(`${file}: not a JSON object; fix or remove it, then run init again`);
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Refuse a key of `file` whose value is not of the type Claude Code reads there (`what`): merging
 * into it would drop it (an object where a list belongs) or spell a string out as an object.
 */
function expect(file, key, value, ok, what) {
  if (value !== undefined && !ok(value)) {
    const is = Array.isArray(value) ? 'a list' : value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
    throw new Error(`${file}: "${key}" is ${is}, not ${what}; fix or remove it, then run init again`);
  }
}

/** Merge the hook into a settings object (replacing an earlier groundgate hook). */
function mergeSettings(settings, hook, file = 'settings') {
  expect(file, 'hooks', settings.hooks, isObject, 'an object');
  expect(file, 'hooks.UserPromptSubmit', settings.hooks?.UserPromptSubmit, Array.isArray, 'a list');
  const out = { ...settings, hooks: { ...(settings.hooks ?? {}) } };
  const entries = withoutOurs(out.hooks.UserPromptSubmit ?? []);
  out.hooks.UserPromptSubmit = [...entries, { hooks: [hook] }];
  return out;
}

/** Merge the MCP server into a .mcp.json object. */
function mergeMcp(mcp, server, file = '.mcp.json') {
  expect(file, 'mcpServers', mcp.mcpServers, isObject, 'an object');
  return { ...mcp, mcpServers: { ...(mcp.mcpServers ?? {}), groundgate: server } };
}

function writeJson(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

async function run(argv) {
  const [host, ...rest] = argv;
  if (host !== 'claude-code') {
    if (host === '--help' || host === '-h') return process.stdout.write(usage('init claude-code', summary, spec)), 0;
    throw new UsageError(host === undefined ? 'name the host: groundgate init claude-code --index A.ggi …' : `unknown host '${host}'; hosts: claude-code`);
  }
  const { values: a } = parse(rest, spec, 'init claude-code');
  if (a.help) return process.stdout.write(usage('init claude-code', summary, spec)), 0;
  const timeout = Number(a.timeout);
  if (!Number.isInteger(timeout) || timeout < 1 || timeout > 600) throw new UsageError(`invalid value '${a.timeout}' for --timeout: 1–600 seconds`);
  const indexes = a.index.map((f) => path.resolve(f));
  // A typo here would only show later as a silent hook: load them now, together (two indexes of
  // one name are refused here, not on every prompt).
  require('./load').engine(indexes).free();
  const abs = (f) => (f === undefined ? undefined : path.resolve(f));
  const project = path.resolve(a.project);
  if (!a.print && !(fs.existsSync(project) && fs.statSync(project).isDirectory())) {
    throw new Error(`--project ${project}: no such folder (run init in the project, or name it)`);
  }
  const p = plan({ indexes, state: abs(a.state), log: abs(a.log), timeout, project });
  const settingsFile = path.join(project, '.claude', 'settings.json');
  const mcpFile = path.join(project, '.mcp.json');
  const settings = mergeSettings(readJson(settingsFile), p.hook, settingsFile);
  const mcp = mergeMcp(readJson(mcpFile), p.server, mcpFile);
  if (a.print) {
    process.stdout.write(`# ${settingsFile}\n${JSON.stringify(settings, null, 2)}\n# ${mcpFile}\n${JSON.stringify(mcp, null, 2)}\n# or, instead of .mcp.json:\n${p.mcpAdd}\n`);
    return 0;
  }
  writeJson(settingsFile, settings);
  writeJson(mcpFile, mcp);
  process.stdout.write(`wrote ${settingsFile} (UserPromptSubmit hook)\nwrote ${mcpFile} (MCP server "groundgate")\n(or, instead of .mcp.json: ${p.mcpAdd})\n`);
  return 0;
}

module.exports = { summary, spec, plan, mergeSettings, mergeMcp, shellQuote, withoutOurs, run };
