'use strict';
// The JSON Lines contract of `ask --jsonl` and `search --jsonl`, as the native CLI writes it: one
// output line per non-blank input line, the input's `id` echoed first (null when absent or when the
// line is not JSON), then the result's fields or `"error": {"code", "message"}`.

/**
 * `id` as serde_json writes a parsed JSON value: object keys sorted (serde_json's map is ordered by
 * key), no whitespace. (Floats with an integral value, e.g. `1.0`, print as `1` here and as `1.0`
 * natively: use integer or string ids.)
 */
function idJson(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(idJson).join(',')}]`;
  const keys = Object.keys(value).sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : Buffer.from(a) > Buffer.from(b) ? 1 : 0));
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

/** Parse one input line: `{value}` or `{error}` (not JSON, numbered from 1). */
function parseLine(line, n) {
  try {
    return { value: JSON.parse(line) };
  } catch (e) {
    return { error: invalid('line', `line ${n + 1} is not JSON: ${e.message}`) };
  }
}

/** A field of a parsed line, as serde_json's `Value::get` sees it (objects only). */
function field(value, name) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return Object.prototype.hasOwnProperty.call(value, name) ? value[name] : undefined;
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

module.exports = { idJson, okLine, errorLine, invalid, parseLine, field, Timings };
