'use strict';
// The JSON Lines contract of `ask --jsonl` and `search --jsonl` as the library's src/protocol.rs
// spells it for the native CLI: input bytes split at `\n` (a trailing `\r` dropped), blank lines
// skipped, every other line exactly one output line in order — the reply, or
// `{"id", "error": {"code", "message"}}` for a line over 1 MiB, not UTF-8, not JSON, not an object,
// or missing a field — the `id` echoed first (null when absent). Byte-identical to the native CLI
// except the detail of a "not JSON" message (the parser's own words: serde_json's natively,
// V8's here).

const MAX_LINE_BYTES = 1 << 20;

/**
 * `id` as serde_json writes a parsed JSON value: object keys sorted (serde_json's map is ordered by
 * key), no whitespace. (A float with an integral value, e.g. `1.0`, prints as `1` here and as `1.0`
 * natively: use integer or string ids.)
 */
function idJson(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(idJson).join(',')}]`;
  const keys = Object.keys(value).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${idJson(value[k])}`).join(',')}}`;
}

/** `{"id":…,` + the fields of the result object's JSON text. */
function okLine(id, resultJson) {
  return `{"id":${idJson(id)},${resultJson.slice(1)}`;
}

/** An error line; `e` is a thrown groundgate error (`code`, `message`) or anything else. */
function errorLine(id, e) {
  const code = e && typeof e.code === 'string' ? e.code : 'invalid_argument';
  const message = e && typeof e.message === 'string' ? e.message : String(e);
  return `{"id":${idJson(id)},"error":${JSON.stringify({ code, message })}}`;
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

/** Rust's `str::trim().is_empty()` (Unicode White_Space; unlike JS `trim`, not U+FEFF). */
const BLANK = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/** Line `n` (1-based) → `{blank}`, `{id, body}` or `{id: null, error}`, as protocol::parse. */
function parseLine(bytes, n) {
  if (bytes.length > MAX_LINE_BYTES) return { error: invalid('line', `line ${n} is ${bytes.length} bytes, at most ${MAX_LINE_BYTES}`) };
  const line = bytes.length && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, -1) : bytes;
  const bad = utf8Error(line);
  if (bad) return { error: invalid('line', `line ${n} is not UTF-8: ${bad}`) };
  const text = line.toString('utf8');
  if (BLANK.test(text)) return { blank: true };
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: invalid('line', `line ${n} is not JSON: ${e.message}`) };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { error: invalid('line', `line ${n} is not a JSON object`) };
  }
  const { id = null, ...body } = value;
  return { id, body };
}

/**
 * Serve stdin line by line: `handle(id, body)` returns the output line of a request; bad lines get
 * an error line, blank lines nothing. Each line is written as soon as it is answered.
 */
function serve(handle) {
  return serveBytes((bytes, n) => {
    const p = parseLine(bytes, n);
    if (p.blank) return '';
    return p.error ? errorLine(null, p.error) : handle(p.id, p.body);
  });
}

/**
 * `groundgate tool`'s loop: each raw line goes to `engine.handleLine` (the library's own
 * request parsing), after the checks a JS string cannot carry: the 1 MiB bound (on the at most
 * 1 MiB + 2 bytes the native reader keeps) and UTF-8.
 */
function serveHandleLine(engine, clock) {
  return serveBytes((bytes) => {
    let line = bytes.subarray(0, MAX_LINE_BYTES + 2);
    if (line.length && line[line.length - 1] === 0x0d) line = line.subarray(0, -1);
    if (line.length > MAX_LINE_BYTES) return errorLine(null, invalid('line', `line is ${line.length} bytes, at most ${MAX_LINE_BYTES}`));
    const bad = utf8Error(line);
    if (bad) return errorLine(null, invalid('line', `line is not UTF-8: ${bad}`));
    return clock.time(() => engine.handleLine(line.toString('utf8')));
  });
}

/** Read stdin as `\n`-separated byte lines; `answer(bytes, n)` gives the output line ('' for none). */
function serveBytes(answerLine) {
  return new Promise((resolve, reject) => {
    let pending = [];
    let pendingLen = 0;
    let n = 0;
    const answer = (bytes) => {
      n += 1;
      const out = answerLine(bytes, n);
      if (out !== '') process.stdout.write(out + '\n');
    };
    process.stdin.on('data', (chunk) => {
      try {
        let start = 0;
        let at;
        while ((at = chunk.indexOf(0x0a, start)) >= 0) {
          pending.push(chunk.subarray(start, at));
          answer(pending.length === 1 ? pending[0] : Buffer.concat(pending));
          pending = [];
          pendingLen = 0;
          start = at + 1;
        }
        if (start < chunk.length) {
          pending.push(chunk.subarray(start));
          pendingLen += chunk.length - start;
        }
      } catch (e) {
        process.stdin.destroy();
        reject(e);
      }
    });
    process.stdin.on('end', () => {
      try {
        if (pendingLen > 0) answer(Buffer.concat(pending));
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
      this.us.push(Number(process.hrtime.bigint() - t) / 1000);
    }
  }
  summary() {
    const us = [...this.us].sort((a, b) => a - b);
    const pick = (q) => us[Math.round((us.length - 1) * q)] ?? 0;
    const round1 = (x) => Math.round(x * 10) / 10;
    return JSON.stringify({ timings: { calls: us.length, median_us: round1(pick(0.5)), p95_us: round1(pick(0.95)), total_ms: Math.round(us.reduce((a, b) => a + b, 0) / 100) / 10 } });
  }
}

module.exports = { idJson, okLine, errorLine, invalid, parseLine, serve, serveHandleLine, utf8Error, Timings, MAX_LINE_BYTES };
