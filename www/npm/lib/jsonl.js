'use strict';
// The JSON Lines loops of `ask --jsonl`, `search --jsonl`, the tools' `--jsonl` and `tool`. The
// contract lives in the library (src/protocol.rs): each line's text goes to the wasm module's line
// function (`Engine.askLine`, `toolLine`, `handleLine`, `Index.searchLine`), which parses it with
// serde_json and writes the reply line as the native CLI does, byte for byte. Here only what a JS
// string cannot carry is checked first, with protocol::parse's words: input bytes split at `\n` (a
// trailing `\r` dropped), a line over 1 MiB (only its first bytes kept in memory, its length
// counted), bytes that are not UTF-8. Every line gives exactly one output line, in order; blank
// lines none.

const MAX_LINE_BYTES = 1 << 20;

/**
 * A value's JSON as serde_json writes a parsed JSON value: object keys sorted (serde_json's map is
 * ordered by key), no whitespace. For a one-shot tool call's arguments (the first unknown field
 * named in an error is the first in that order, as natively).
 */
function idJson(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(idJson).join(',')}]`;
  const keys = Object.keys(value).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${idJson(value[k])}`).join(',')}}`;
}

/** An error line without an id; `e` is a groundgate error (`code`, `message`) or anything else. */
function errorLine(e) {
  const code = e && typeof e.code === 'string' ? e.code : 'invalid_argument';
  const message = e && typeof e.message === 'string' ? e.message : String(e);
  return `{"id":null,"error":${JSON.stringify({ code, message })}}`;
}

/** An `invalid_argument` error as the library spells it (`invalid NAME: DETAIL`). */
function invalid(name, detail) {
  const e = new Error(`invalid ${name}: ${detail}`);
  e.code = 'invalid_argument';
  return e;
}

/** Rust's `Utf8Error` message for bytes that are not UTF-8, or null when they are. */
function utf8Error(bytes) {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return `invalid utf-8 sequence of 1 bytes from index ${i}`;
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= need; k++) {
      if (i + k >= bytes.length) return `incomplete utf-8 byte sequence from index ${i}`;
      const c = bytes[i + k];
      if (c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return `invalid utf-8 sequence of ${k} bytes from index ${i}`;
    }
    i += need + 1;
  }
  return null;
}

/**
 * The checks a JS string cannot carry, with the library's words, on a line's kept `bytes` (its
 * full length `len`, without `\n`; a trailing `\r` not counted when the whole line was kept): the
 * `invalid line` error naming it as `what` ("line 3", or "line" for handleLine), or null.
 */
function lineError(bytes, len, what) {
  const cr = len === bytes.length && bytes.length > 0 && bytes[bytes.length - 1] === 0x0d;
  const size = cr ? len - 1 : len;
  if (size > MAX_LINE_BYTES) return invalid('line', `${what} is ${size} bytes, at most ${MAX_LINE_BYTES}`);
  const bad = utf8Error(cr ? bytes.subarray(0, -1) : bytes);
  return bad ? invalid('line', `${what} is not UTF-8: ${bad}`) : null;
}

/** How the library's reply to a line that is no request begins (`protocol::parse`'s errors). */
const NOT_A_REQUEST = '{"id":null,"error":{"code":"invalid_argument","message":"invalid line: line ';

/**
 * Serve stdin line by line: `reply(text, n)` is a library line function's answer to line `n`
 * (`''` for a blank line); a line that cannot be text gets its error line here. `clock` (a
 * `Timings`) records the requests' times only, as the native loops do.
 */
function serve(reply, clock) {
  return serveBytes((bytes, n, len) => {
    const error = lineError(bytes, len, `line ${n}`);
    if (error) return errorLine(error);
    const started = process.hrtime.bigint();
    // With its `\r`: the library's parse drops exactly one, as natively.
    const out = reply(bytes.toString('utf8'), n);
    if (clock && out !== '' && !out.startsWith(NOT_A_REQUEST)) clock.add(started);
    return out;
  });
}

/**
 * `groundgate tool`'s loop: each raw line goes to `engine.handleLine` (the library's own request
 * parsing; its messages name no line number), after the checks of the line's length (its full
 * length) and of the bytes kept, as the native loop's protocol::handle_read_line makes them.
 */
function serveHandleLine(engine, clock) {
  // Every line is timed, as the native loop times each protocol::handle_read_line call.
  return serveBytes((bytes, n, len) => clock.time(() => {
    const error = lineError(bytes, len, 'line');
    // With its `\r`: handle_line drops exactly one, as natively.
    return error ? errorLine(error) : engine.handleLine(bytes.toString('utf8'));
  }));
}

/**
 * Read stdin as `\n`-separated byte lines; `answer(bytes, n, len)` gives the output line (`''` for
 * none): `bytes` are at most the line's first 1 MiB + 2 bytes (as protocol::read_line keeps),
 * `len` its full length — a line of any length costs no more memory than that.
 */
function serveBytes(answerLine) {
  require('./load').stdinReadable();
  const KEEP = MAX_LINE_BYTES + 2;
  return new Promise((resolve, reject) => {
    let pending = [];
    let kept = 0;
    let len = 0;
    let n = 0;
    const add = (part) => {
      len += part.length;
      if (kept < KEEP && part.length) {
        const p = part.subarray(0, KEEP - kept);
        pending.push(p);
        kept += p.length;
      }
    };
    const answer = () => {
      n += 1;
      const bytes = pending.length === 1 ? pending[0] : Buffer.concat(pending);
      const size = len;
      pending = [];
      kept = 0;
      len = 0;
      const out = answerLine(bytes, n, size);
      if (out !== '') process.stdout.write(out + '\n');
    };
    process.stdin.on('data', (chunk) => {
      try {
        let start = 0;
        let at;
        while ((at = chunk.indexOf(0x0a, start)) >= 0) {
          add(chunk.subarray(start, at));
          answer();
          start = at + 1;
        }
        if (start < chunk.length) add(chunk.subarray(start));
      } catch (e) {
        process.stdin.destroy();
        reject(e);
      }
    });
    process.stdin.on('end', () => {
      try {
        if (len > 0) answer();
        resolve();
      } catch (e) {
        reject(e);
      }
    });
    process.stdin.on('error', reject);
  });
}

/** Per-call wall times, summarised like the native `--timings` line. */
class Timings {
  constructor() {
    this.us = [];
  }
  time(f) {
    const t = process.hrtime.bigint();
    try {
      return f();
    } finally {
      this.add(t);
    }
  }
  /** Record the time since `started` (a `process.hrtime.bigint()`). */
  add(started) {
    this.us.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  summary() {
    const us = [...this.us].sort((a, b) => a - b);
    const pick = (q) => us[Math.round((us.length - 1) * q)] ?? 0;
    const round1 = (x) => Math.round(x * 10) / 10;
    return JSON.stringify({ timings: { calls: us.length, median_us: round1(pick(0.5)), p95_us: round1(pick(0.95)), total_ms: Math.round(us.reduce((a, b) => a + b, 0) / 100) / 10 } });
  }
}

module.exports = { idJson, errorLine, invalid, lineError, serve, serveHandleLine, utf8Error, Timings, MAX_LINE_BYTES };
