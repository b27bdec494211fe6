'use strict';
// A local stand-in for the Anthropic Messages API, for running the real Claude Code (`claude -p`)
// offline: it answers POST /v1/messages (streaming as server-sent events, or one JSON message) and
// POST /v1/messages/count_tokens, and records every request body. The record is what the model would
// have seen, so a test asserts on it. Only the model is faked; the client under test is the real one.

const http = require('node:http');

/** Rough token count (4 characters a token) for count_tokens and usage. */
function tokens(text) {
  return Math.max(1, Math.ceil(text.length / 4));
}

function sse(res, event, data) {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * Start the server on 127.0.0.1 (a free port). `reply(body)` gives the assistant's text for a
 * request (default: a fixed sentence). Resolves to {url, requests, messages(), close()}; `requests`
 * holds {path, headers, body} for every request, in order.
 */
function start({ reply = () => 'groundgate test reply.' } = {}) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = { unparsed: raw };
      }
      const path = req.url.split('?')[0];
      requests.push({ method: req.method, path, headers: req.headers, body });
      if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ input_tokens: tokens(raw) }));
      }
      if (req.method !== 'POST' || path !== '/v1/messages') {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: path } }));
      }
      const text = reply(body);
      const model = (body && body.model) || 'claude-test';
      const id = `msg_test_${requests.length}`;
      const usage = { input_tokens: tokens(raw), output_tokens: tokens(text) };
      if (body && body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        sse(res, 'message_start', {
          type: 'message_start',
          message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens, output_tokens: 1 } },
        });
        sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
        sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
        sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
        sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
        sse(res, 'message_stop', { type: 'message_stop' });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage }));
    });
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        /** Bodies of the POST /v1/messages requests. */
        messages: () => requests.filter((r) => r.path === '/v1/messages').map((r) => r.body),
        close: () => new Promise((done) => server.close(done)),
      });
    });
  });
}

/** Every text a request carried (system, messages, tool results), joined: what the model saw. */
function textOf(body) {
  const out = [];
  const walk = (v) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      if (typeof v.text === 'string') out.push(v.text);
      if (v.content !== undefined) walk(v.content);
    }
  };
  if (body) {
    walk(body.system);
    walk(body.messages);
  }
  return out.join('\n');
}

module.exports = { start, textOf };
