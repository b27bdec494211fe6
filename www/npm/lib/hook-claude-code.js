'use strict';
// The Claude Code `UserPromptSubmit` hook: stdin is Claude Code's JSON ({session_id, prompt, …}),
// stdout is what the model gets in front of the prompt. The decision is `ask`'s; this module only
// presents it:
//   push → the evidence block `ask` gives, unchanged, plus one line of the delivery rule;
//   pull → a short instruction naming the groundgate MCP tool calls to make (from `ask`'s hints);
//   skip → nothing.
// It never blocks the prompt: every failure is a message on stderr and exit 0. Output stays within
// Claude Code's 10,000 characters (above that the model would get a file path and a 2 KB preview).

const fs = require('node:fs');

/** Claude Code passes at most this many characters of additionalContext whole. */
const MAX_CONTEXT_CHARS = 10000;
/** Stdin above this many bytes is skipped without parsing (a prompt over 1 MiB). */
const MAX_STDIN_BYTES = 1024 * 1024;
/** At most this many tool calls in a pull instruction. */
const MAX_CALLS = 4;
/** A search query taken from a pasted prompt is cut to this many characters. */
const MAX_QUERY_CHARS = 200;

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/;

/** The prompt's language for the lines the hook adds: Korean when it has Hangul. */
function lang(prompt) {
  return HANGUL.test(prompt) ? 'ko' : 'en';
}

/** Claude Code's name for an MCP server's tool. */
function mcpTool(server, tool) {
  return `mcp__${server}__${tool}`;
}

/** The delivery rule in one line (rules 2–3 of `groundgate rules`). */
function deliveryRule(language, server) {
  const search = mcpTool(server, 'search');
  return language === 'ko'
    ? `groundgate: 위 근거로 답하고 주장마다 [n] 인용을 붙이세요. 근거가 답이 되지 않으면 "근거 부족"이라고 말하고 groundgate 도구(${search})로 찾으세요.`
    : `groundgate: answer from this evidence and cite every claim as [n]; if it does not answer the question, say so and search with the groundgate tools (${search}).`;
}

/** A search query from the prompt: whitespace folded, cut at a word boundary. */
function queryOf(prompt) {
  const text = prompt.replace(/\s+/g, ' ').trim();
  if (text.length <= MAX_QUERY_CHARS) return text;
  const cut = text.slice(0, MAX_QUERY_CHARS);
  const space = cut.lastIndexOf(' ');
  return space > MAX_QUERY_CHARS / 2 ? cut.slice(0, space) : cut;
}

/**
 * The tool calls for a pull: `ask`'s hints (`{tool, arguments}`: a search of each relevant instance,
 * then a read of the best location each found), at most MAX_CALLS; a plain search of the prompt
 * when there are none.
 */
function toolCalls(answer, prompt) {
  const hints = Array.isArray(answer.hints) ? answer.hints : [];
  const calls = hints
    .filter((h) => h && typeof h.tool === 'string' && h.arguments && typeof h.arguments === 'object')
    .map((h) => ({ tool: h.tool, arguments: h.arguments }));
  if (calls.length === 0) calls.push({ tool: 'search', arguments: { query: queryOf(prompt) } });
  // Keep a read among the calls when the hints hold one (searches come first).
  if (calls.length > MAX_CALLS) {
    const reads = calls.filter((c) => c.tool === 'read');
    const others = calls.filter((c) => c.tool !== 'read');
    const keepReads = reads.slice(0, Math.min(reads.length, Math.max(1, MAX_CALLS - others.length)));
    return [...others.slice(0, MAX_CALLS - keepReads.length), ...keepReads];
  }
  return calls;
}

/** The pull instruction: no evidence, the tool calls to make. */
function pullInstruction(answer, prompt, server) {
  const language = lang(prompt);
  const calls = toolCalls(answer, prompt).map((c) => `- ${mcpTool(server, c.tool)} ${JSON.stringify(c.arguments)}`);
  const head =
    language === 'ko'
      ? answer.kind === 'sentence'
        ? 'groundgate: 이 입력은 문서에서 붙여 넣은 문장으로 보여 근거를 주입하지 않았습니다(route = pull). 기억으로 답하지 말고 먼저 groundgate 도구로 찾으세요:'
        : 'groundgate: 주입할 만큼 충분한 근거를 찾지 못했습니다(route = pull). 답하기 전에 groundgate 도구로 찾으세요:'
      : answer.kind === 'sentence'
        ? 'groundgate: this input looks like text pasted from a document, so no evidence was injected (route = pull). Do not answer from memory; search with the groundgate tools first:'
        : 'groundgate: no evidence was strong enough to inject (route = pull). Search with the groundgate tools before answering:';
  const tail =
    language === 'ko'
      ? '쪽·조를 인용하기 전에는 read로 원문을 열어 위치를 확인하세요.'
      : 'Open the source with read before citing a page or article.';
  return [head, ...calls, tail].join('\n');
}

/**
 * What the hook adds for an answer: the additionalContext text, or '' for nothing. A push whose
 * block would pass MAX_CONTEXT_CHARS (only with very large budgets) becomes a pull instruction.
 */
function contextFor(answer, prompt, server) {
  if (answer.route === 'push' && answer.context) {
    const text = `${answer.context}${answer.context.endsWith('\n') ? '' : '\n'}${deliveryRule(lang(prompt), server)}`;
    if (text.length <= MAX_CONTEXT_CHARS) return text;
  }
  if (answer.route === 'push' || answer.route === 'pull') {
    const text = pullInstruction(answer, prompt, server);
    if (text.length <= MAX_CONTEXT_CHARS) return text;
    // Whole lines only: a call cut inside its tool name or arguments could not be made.
    const end = text.lastIndexOf('\n', MAX_CONTEXT_CHARS);
    return end > 0 ? text.slice(0, end) : '';
  }
  return '';
}

/** The hook's stdout for a context ('' → nothing). */
function output(context, notice = '') {
  const out = {};
  if (context) out.hookSpecificOutput = { hookEventName: 'UserPromptSubmit', additionalContext: context };
  // Shown to the person (not the model): an index that could not be loaded, or groundgate off.
  if (notice) out.systemMessage = notice;
  return Object.keys(out).length ? `${JSON.stringify(out)}\n` : '';
}

/** Read stdin up to MAX_STDIN_BYTES; past that resolve {tooLong: true} (the rest is drained). */
function readInput(stream = process.stdin) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    let tooLong = false;
    stream.on('data', (c) => {
      size += c.length;
      if (size > MAX_STDIN_BYTES) {
        tooLong = true;
        chunks.length = 0;
        resolve({ tooLong, text: '' });
      } else if (!tooLong) chunks.push(c);
    });
    stream.on('end', () => resolve({ tooLong, text: Buffer.concat(chunks).toString('utf8') }));
    stream.on('error', reject);
  });
}

/** Parse Claude Code's hook input; throws an Error with a readable message. */
function parseInput(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`stdin is not JSON (${e.message})`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('stdin is not a JSON object');
  if (typeof value.prompt !== 'string') throw new Error('stdin has no string "prompt"');
  const session = typeof value.session_id === 'string' && value.session_id.length > 0 && value.session_id.length <= 256 ? value.session_id : undefined;
  const id = typeof value.prompt_id === 'string' ? value.prompt_id : null;
  return { prompt: value.prompt, session, id };
}

/** The decision-log line for `groundgate stats` (the `ask --jsonl` line without evidence text). */
function logLine(input, answer, ms) {
  return `${JSON.stringify({ id: input.id, session: input.session ?? null, route: answer.route, kind: answer.kind, reasons: answer.reasons, hook_ms: ms, log: answer.log })}\n`;
}

/**
 * Run the hook. `opts`: {index: [files], state?: dir, log?: file, server?: MCP server name,
 * format?, config?}. `io`: {stdin, stdout, stderr} streams. Resolves to the exit code: always 0.
 */
async function run(opts, io = process) {
  const warn = (m) => io.stderr.write(`groundgate hook: ${m}\n`);
  const started = process.hrtime.bigint();
  let input;
  try {
    const got = await readInput(io.stdin);
    if (got.tooLong) {
      warn(`prompt over ${MAX_STDIN_BYTES} bytes: skipped`);
      return 0;
    }
    input = parseInput(got.text);
  } catch (e) {
    warn(`${e.message}; the prompt goes on without groundgate`);
    return 0;
  }
  try {
    const load = require('./load');
    load.oneShot(); // one prompt per process
    const state = require('./hook-state');
    const skipped = [];
    const engine = load.engine(opts.index, {
      config: opts.config,
      skip: (e) => {
        skipped.push(e.message);
        warn(`${e.message}; going on with the other indexes`);
      },
    });
    const askOpts = { session: input.session, format: opts.format };
    const ask = () => engine.ask(input.prompt, askOpts);
    const answer = input.session ? state.withSession(engine, opts.state ?? state.defaultDir(), input.session, ask, warn) : ask();
    const notice = skipped.length ? `groundgate: ${skipped.join('; ')} (left out; fix the hook's --index)` : '';
    const out = output(contextFor(answer, input.prompt, opts.server ?? 'groundgate'), notice);
    if (out) io.stdout.write(out);
    if (opts.log) {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      try {
        fs.appendFileSync(opts.log, logLine(input, answer, Math.round(ms * 10) / 10));
      } catch (e) {
        warn(`--log ${opts.log}: ${e && e.message ? e.message : String(e)}; the decision was not logged`);
      }
    }
  } catch (e) {
    const message = `${e && e.message ? e.message : String(e)}; the prompt goes on without groundgate`;
    warn(message);
    io.stdout.write(output('', `groundgate: ${message}`));
  }
  return 0;
}

module.exports = {
  MAX_CONTEXT_CHARS,
  MAX_STDIN_BYTES,
  deliveryRule,
  toolCalls,
  pullInstruction,
  contextFor,
  output,
  parseInput,
  readInput,
  logLine,
  run,
};
