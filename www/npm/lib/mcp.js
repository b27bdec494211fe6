'use strict';
// `groundgate mcp`: an MCP server (stdio) over index files, on the SDK's low-level `Server`.
//
// Conversion only: the tools, their JSON Schemas (input and output), titles, descriptions and
// annotations come from the Rust module src/tools through `Engine.toolDefinitions()` and are passed
// on as they are (no second copy of the schemas here); a call is `engine.callToolJson(name, args)`,
// whose JSON text becomes both the text content and `structuredContent`. Argument checking is the
// library's: a bad argument comes back as an `isError` result naming the field, and the server goes
// on serving; a malformed call is JSON-RPC's Invalid params (−32602), a request with a readable id
// that is not JSON-RPC 2.0 (`"jsonrpc": "1.0"`) Invalid Request (−32600), a line that is not
// JSON-RPC at all a line on stderr. The delivery rules (`Engine.rules`) are the prompt `rules`; rules 3–4 are also the
// server's `instructions`. The prompt `rebel` is the one-turn REBEL rerank prompt over the search
// results for a query, built by the library (`engine.rebelPrompt`, docs/rerank.md). Logs go to
// stderr only: stdout is the protocol.

const { parse, usage, UsageError } = require('./args');
const load = require('./load');

const summary = 'Serve the pull tools (search, grep, sources, read, links) over MCP on stdio.';
const spec = {
  index: { type: 'string', multiple: true, required: true, help: 'index files, one per instance' },
  help: { type: 'boolean', help: 'this text' },
};

/** Rules `numbers` of the delivery rules in `lang`, as written in the library. */
function ruleLines(gg, lang, numbers) {
  const lines = gg.Engine.rules(lang).split('\n');
  return lines.filter((l) => numbers.some((n) => l.startsWith(`${n}. `)));
}

/** The server's instructions: what it serves and the field report's rules 3–4 (en, ko). */
function instructions(gg, engine) {
  return [
    `groundgate: cited search over these document collections (instances): ${engine.instances().join(', ')}.`,
    'Search with `search` (or `grep` for an exact phrase), open the original with `read` (its citation is',
    'the location to cite), list what an instance holds with `sources`, follow a record\'s attachments with `links`.',
    ...ruleLines(gg, 'en', [3, 4]),
    ...ruleLines(gg, 'ko', [3, 4]),
  ].join('\n');
}

/** A text result of an error thrown by the library (`code`, `message`). */
function errorResult(e) {
  const code = e && typeof e.code === 'string' ? e.code : 'internal';
  const message = e && typeof e.message === 'string' ? e.message : String(e);
  return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }] };
}

/**
 * An MCP `Server` (not yet connected) answering from `engine`, an `Engine` with its instances
 * loaded. Embed it in your own host with any SDK transport.
 */
function createServer(engine, { name = 'groundgate', version = require('../package.json').version } = {}) {
  const gg = load.wasm();
  const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
  const types = require('@modelcontextprotocol/sdk/types.js');
  const tools = gg.Engine.toolDefinitions();
  const server = new Server(
    { name, version, title: 'groundgate' },
    { capabilities: { tools: {}, prompts: {} }, instructions: instructions(gg, engine) },
  );
  // Registered with a schema that reads any params, checked against CallToolRequestSchema in the
  // handler: a malformed call (`"arguments": null`, a name that is no string) is JSON-RPC's
  // Invalid params (-32602), not an Internal error (-32603). `params` itself may be missing too
  // (zod's `unknown()` alone would require the key, and a call without params would be an
  // Internal error).
  const { z } = require('zod');
  const anyCall = z.object({ method: z.literal('tools/call'), params: z.unknown().optional() });
  // The other methods alike: the SDK answers params its schema refuses (`"cursor": 5`, a prompt
  // argument that is no string) as an Internal error with zod's whole report; they are read with
  // any params and checked here against the SDK's own schema: Invalid params, one line.
  const loose = (method) => z.object({ method: z.literal(method), params: z.unknown().optional() });
  const checked = (schema, request) => {
    const parsed = schema.safeParse(request);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0] || { path: [], message: 'not what the method takes' };
    throw new types.McpError(types.ErrorCode.InvalidParams, `${issue.path.join('.') || 'params'}: ${issue.message}`);
  };
  server.setRequestHandler(loose('tools/list'), async (request) => {
    checked(types.ListToolsRequestSchema, request);
    return { tools };
  });
  // tools/call is registered on the SDK's Protocol, below its Server, whose own registration
  // checks the call first and answers a bad one with zod's whole report in several lines
  // (`"arguments": null`); checked here instead: Invalid params, one line naming the field. (The
  // Server's wrapper also reads `params.task`: this server declares no tasks capability.)
  const protocolHandler = Object.getPrototypeOf(Server.prototype).setRequestHandler;
  protocolHandler.call(server, anyCall, async (request) => {
    const { name: tool, arguments: args } = checked(types.CallToolRequestSchema, request).params;
    let json;
    try {
      json = engine.callToolJson(tool, args ?? {});
    } catch (e) {
      return errorResult(e);
    }
    return { content: [{ type: 'text', text: json }], structuredContent: JSON.parse(json) };
  });
  const prompts = [
    {
      name: 'rules',
      title: 'Evidence delivery rules',
      description: 'The rules for answering from groundgate evidence and tools (cite, say "insufficient", open the source before citing a page or article).',
      arguments: [{ name: 'lang', description: 'ko or en (default en)', required: false }],
    },
    {
      name: 'rebel',
      title: 'REBEL rerank of the search results',
      description: 'Rerank the passages groundgate finds for a query by relevance and secondary criteria (depth, diversity, clarity, authority, recency; REBEL, one turn): the prompt holds the passages with their citations and asks for a strict <ranking> block.',
      arguments: [
        { name: 'query', description: 'the question or words to search for', required: true },
        { name: 'instance', description: 'search only this instance (default: all)', required: false },
        { name: 'k', description: 'passages to rerank, 1–50 (default 8)', required: false },
        { name: 'lang', description: 'ko or en (default ko)', required: false },
      ],
    },
  ];
  server.setRequestHandler(loose('prompts/list'), async (request) => {
    checked(types.ListPromptsRequestSchema, request);
    return { prompts };
  });
  server.setRequestHandler(loose('prompts/get'), async (request) => {
    const { name, arguments: args = {} } = checked(types.GetPromptRequestSchema, request).params;
    const prompt = prompts.find((p) => p.name === name);
    if (!prompt) {
      throw new types.McpError(types.ErrorCode.InvalidParams, `unknown prompt ${JSON.stringify(name)}; the prompts are ${prompts.map((p) => `"${p.name}"`).join(', ')}`);
    }
    // Arguments the prompt does not declare are refused, as a tool's unknown arguments are.
    const unknown = Object.keys(args).filter((k) => !prompt.arguments.some((a) => a.name === k));
    if (unknown.length) {
      throw new types.McpError(types.ErrorCode.InvalidParams, `prompt "${name}" has no argument ${JSON.stringify(unknown[0])}; its arguments are ${prompt.arguments.map((a) => a.name).join(', ')}`);
    }
    let text;
    try {
      text = name === 'rules' ? gg.Engine.rules(args.lang ?? 'en') : rebelPrompt(engine, args);
    } catch (e) {
      const code = e && typeof e.code === 'string' ? `${e.code}: ` : '';
      throw new types.McpError(types.ErrorCode.InvalidParams, `${code}${e && e.message ? e.message : String(e)}`);
    }
    return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text } }] };
  });
  return server;
}

/**
 * The `rebel` prompt's text: MCP prompt arguments are strings; `k` is passed on as a number when it
 * is one (else as given, for the library to reject), every check is the library's.
 */
function rebelPrompt(engine, args) {
  const a = { query: args.query };
  if (args.instance !== undefined) a.instance = args.instance;
  if (args.k !== undefined) a.k = /^[0-9]{1,6}$/.test(args.k) ? Number(args.k) : args.k;
  if (args.lang !== undefined) a.lang = args.lang;
  return engine.rebelPrompt(a).prompt;
}

/**
 * Why a request `message` (a parsed JSON object with a readable id) is not one JSON-RPC 2.0 takes,
 * or `null` when the SDK's schema accepts it.
 */
function invalidRequest(types, message) {
  if (types.JSONRPCMessageSchema.safeParse(message).success) return null;
  if (message.jsonrpc !== '2.0') return '"jsonrpc" must be "2.0"';
  if (typeof message.method !== 'string') return '"method" must be a string';
  if (message.params !== undefined && (typeof message.params !== 'object' || message.params === null || Array.isArray(message.params))) {
    return '"params" must be an object';
  }
  if (typeof message.id === 'number' && !Number.isInteger(message.id)) return '"id" must be a string or a whole number';
  return 'not a JSON-RPC 2.0 request';
}

/** The longest request line the server reads, line end aside (the SDK's own limit, 10 MiB, closes the transport). */
const MAX_LINE = 8 * 1024 * 1024;

/** The bytes kept from each end of a line too long to read, to find its id. */
const ENDS = 4096;

/**
 * The id of a request line too long to parse, read from either end of it (`head`, `tail`): a
 * whole-number or string `"id"` member that opens the object, or that closes it (where the SDK's
 * clients put it); `undefined` when neither end shows one, or when the head shows a reply
 * (`"result"` or `"error"` first, or right after `"jsonrpc"` and `"id"`): a reply gets none.
 */
function idAtEnds(head, tail) {
  const value = String.raw`(-?\d{1,15}|"(?:[^"\\\x00-\x1f]|\\.){0,256}")`;
  const opening = String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?`;
  const reply = new RegExp(String.raw`${opening}(?:"id"\s*:\s*${value}\s*,\s*)?"(?:result|error)"\s*:`);
  const first = new RegExp(String.raw`${opening}"id"\s*:\s*${value}\s*,`);
  const last = new RegExp(String.raw`,\s*"id"\s*:\s*${value}\s*\}\s*$`);
  const start = head.toString('utf8');
  if (reply.test(start)) return undefined;
  const m = first.exec(start) || last.exec(tail.toString('utf8'));
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]);
  } catch {
    return undefined;
  }
}

/** How many bytes of `line`'s end are its line end: `\n` or `\r\n` (none for a last line without). */
function lineEnd(line) {
  const n = line.length;
  if (n === 0 || line[n - 1] !== 10) return 0;
  return n > 1 && line[n - 2] === 13 ? 2 : 1;
}

/**
 * `input` as the SDK's stdio transport reads it, less the lines that are JSON objects with a
 * readable id (a string or a number) but not JSON-RPC 2.0 requests (`"jsonrpc": "1.0"`, `"params":
 * 5`): each is answered by `refuse(id, why)` and not passed on, where the SDK would only report it
 * and the client would wait for its reply for ever. A line longer than `MAX_LINE` is not kept
 * (memory stays bounded) and is refused the same way when either end shows its id, else named by
 * `note`; the SDK would close the transport on it and answer nothing more. A UTF-8 byte order mark
 * opening a line is dropped, and a last line without its newline gets one (the SDK reads only
 * whole lines). Every other line passes unchanged, in order; a message without an id, or with
 * `result` / `error` (a reply), gets no reply here (two peers would answer each other's replies
 * for ever).
 */
function requestsChecked(input, types, refuse, note) {
  const { Transform } = require('node:stream');
  const refused = (line) => {
    let message;
    try {
      message = JSON.parse(line.toString('utf8'));
    } catch {
      return false; // the SDK names it on stderr
    }
    if (!message || typeof message !== 'object' || Array.isArray(message)) return false;
    const { id } = message;
    if (!(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) return false;
    if ('result' in message || 'error' in message) return false;
    const why = invalidRequest(types, message);
    if (why === null) return false;
    refuse(id, why);
    return true;
  };
  const tooLong = (head, tail, size) => {
    const id = idAtEnds(head, tail);
    if (id === undefined) note(`a line of ${size} bytes skipped (over ${MAX_LINE}); no id at either end to answer`);
    else refuse(id, `the request is ${size} bytes, over the ${MAX_LINE} a line may take`);
  };
  // The line being read: its pieces and their size while it may still be kept (up to MAX_LINE
  // and a line end); past that, only its two ends and its size.
  let parts = [];
  let size = 0;
  let over = null;
  /** The line read so far is whole: the line to pass on, or null. */
  const finish = () => {
    let line = null;
    if (over) {
      tooLong(over.head, over.tail, over.size - lineEnd(over.tail));
    } else if (size > 0) {
      line = parts.length === 1 ? parts[0] : Buffer.concat(parts);
      const end = lineEnd(line);
      if (line.length - end > MAX_LINE) {
        tooLong(line.subarray(0, ENDS), line.subarray(-ENDS), line.length - end);
        line = null;
      } else {
        // A UTF-8 byte order mark (a Windows editor's, a PowerShell pipe's) is not part of the
        // JSON: without it the line is read, as the JSON Lines faces read it.
        if (line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3);
        if (end === 0) line = Buffer.concat([line, Buffer.from('\n')]);
        if (refused(line)) line = null;
      }
    }
    parts = [];
    size = 0;
    over = null;
    return line;
  };
  const lines = new Transform({
    transform(chunk, _encoding, done) {
      const kept = [];
      let start = 0;
      while (start < chunk.length) {
        const at = chunk.indexOf(10, start);
        const end = at === -1 ? chunk.length : at + 1;
        const piece = chunk.subarray(start, end);
        start = end;
        if (over) {
          over.size += piece.length;
          over.tail = Buffer.concat([over.tail, piece]).subarray(-ENDS);
        } else if (size + piece.length > MAX_LINE + 2) {
          const line = Buffer.concat([...parts, piece]);
          over = { head: Buffer.from(line.subarray(0, ENDS)), tail: Buffer.from(line.subarray(-ENDS)), size: line.length };
          parts = [];
        } else {
          parts.push(piece);
          size += piece.length;
        }
        if (at === -1) break;
        const line = finish();
        if (line) kept.push(line);
      }
      done(null, kept.length ? Buffer.concat(kept) : undefined);
    },
    flush(done) {
      const line = finish();
      done(null, line || undefined);
    },
  });
  return input.pipe(lines);
}

async function run(argv) {
  const { values: a, positional } = parse(argv, spec, 'mcp');
  if (a.help) return process.stdout.write(usage('mcp', summary, spec));
  if (positional.length) throw new UsageError(`unexpected argument '${positional[0]}' (requests come on stdin)`);
  const engine = load.engine(a.index); // every file verified first: fail at start, not mid-call
  const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
  const server = createServer(engine);
  const types = require('@modelcontextprotocol/sdk/types.js');
  // Invalid Request (−32600) with its id for a request JSON-RPC 2.0 does not take, through the
  // transport's own writer (whole lines, in order with the replies).
  const refuse = (id, why) => {
    process.stderr.write(`groundgate mcp: request ${JSON.stringify(id)} refused: ${why}\n`);
    transport.send({ jsonrpc: '2.0', id, error: { code: types.ErrorCode.InvalidRequest, message: `Invalid Request: ${why}` } })
      .catch((e) => process.stderr.write(`groundgate mcp: ${e && e.message ? e.message : String(e)}\n`));
  };
  const input = requestsChecked(process.stdin, types, refuse, (what) => process.stderr.write(`groundgate mcp: ${what}\n`));
  const transport = new StdioServerTransport(input, process.stdout);
  const closed = new Promise((resolve) => {
    server.onclose = resolve;
  });
  // A line that is not JSON, or not a JSON-RPC message, is named on stderr and the server goes on.
  // No reply: its id cannot be read, and the SDK's clients refuse an error reply with a null id
  // (two such peers would answer each other's replies for ever).
  server.onerror = (e) => {
    const what = e instanceof SyntaxError ? `a line that is not JSON: ${e.message}`
      : e && e.name === 'ZodError' ? 'a JSON line that is not a JSON-RPC 2.0 message'
        : e && e.message ? e.message : String(e);
    process.stderr.write(`groundgate mcp: ${what.split('\n')[0]}\n`);
  };

  await server.connect(transport);
  process.stderr.write(`groundgate mcp: serving ${engine.instances().join(', ')} on stdio\n`);
  oneWriteAtATime(transport);
  closeWhenAnswered(server, transport, input);
  await closed;
}

/** Longest wait, once stdin has ended, for the requests still being answered. */
const DRAIN_MS = 10_000;

/**
 * Close the server when `input` has ended and every request it brought has its reply: closing at
 * once would abort a request still being handled (the SDK sends no reply for an aborted one), so
 * the last request of `… | groundgate mcp` would go unanswered. A request the client cancels
 * (`notifications/cancelled`) is not waited for, nor is any past DRAIN_MS.
 */
function closeWhenAnswered(server, transport, input) {
  const open = new Set();
  let ended = false;
  let closing = false;
  const close = () => {
    if (!closing) server.close();
    closing = true;
  };
  const done = () => {
    if (ended && open.size === 0) close();
  };
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message && typeof message.method === 'string' && 'id' in message) open.add(message.id);
    if (message && message.method === 'notifications/cancelled' && message.params) open.delete(message.params.requestId);
    receive(message, extra);
    done();
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(message, options).finally(() => {
    if (message && ('result' in message || 'error' in message)) open.delete(message.id);
    done();
  });
  input.on('end', () => {
    ended = true;
    done();
    setTimeout(close, DRAIN_MS).unref();
  });
}

/**
 * Send one message at a time, in order. The SDK's stdio `send` waits for `drain` when stdout is
 * full; replies to many concurrent calls each added a `drain` listener to stdout, and past ten
 * Node printed a MaxListenersExceededWarning into the client's log.
 */
function oneWriteAtATime(transport) {
  const send = transport.send.bind(transport);
  let last = Promise.resolve();
  transport.send = (message, options) => {
    const sent = last.then(() => send(message, options));
    last = sent.catch(() => {});
    return sent;
  };
}

module.exports = { summary, run, createServer, instructions };
