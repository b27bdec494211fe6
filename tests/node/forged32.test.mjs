// Crafted index files whose offsets wrap a 32-bit `usize` (wasm32) but not a 64-bit one. Every
// checksum is recomputed, as a forger would: the checks that stop accidents pass, and the decoders
// behind them must refuse the file in wasm exactly as natively (tests/integration/forged.rs has the
// native side of the same two files). Before the fix, the wasm builds served planted text as cited
// evidence (an LZ4 text section with 0x3FFFFFFF blocks: `8 + 8 · (blocks + 1)` wrapped to 8) and
// read a source title out of the offset table (`base + offset` wrapped).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const gg = require(path.join(root, 'pkg/node/groundgate.js'));
const original = readFileSync(path.join(root, 'indexes/constitution.ggi'));

const IDS = { chunks: 6, text: 7, strings: 8, sources: 9 };

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The sections of a .ggi (ARCHITECTURE.md: 20-byte header, 16-byte entries), as copies. */
function sections(bytes) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = v.getUint32(12, true);
  const out = [];
  for (let i = 0; i < count; i++) {
    const at = 20 + 16 * i;
    const off = v.getUint32(at + 4, true);
    out.push({ id: v.getUint32(at, true), data: Uint8Array.from(bytes.subarray(off, off + v.getUint32(at + 8, true))) });
  }
  return { version: v.getUint32(8, true), list: out };
}

/** The file again, every checksum recomputed. */
function assemble({ version, list }) {
  const table = new Uint8Array(16 * list.length);
  const tv = new DataView(table.buffer);
  let off = 20 + table.length;
  list.forEach((s, i) => {
    tv.setUint32(16 * i, s.id, true);
    tv.setUint32(16 * i + 4, off, true);
    tv.setUint32(16 * i + 8, s.data.length, true);
    tv.setUint32(16 * i + 12, crc32(s.data), true);
    off += s.data.length;
  });
  const head = new Uint8Array(20);
  head.set(original.subarray(0, 8));
  const hv = new DataView(head.buffer);
  hv.setUint32(8, version, true);
  hv.setUint32(12, list.length, true);
  const out = new Uint8Array(off);
  out.set(head);
  out.set(table, 20);
  hv.setUint32(16, crc32(Buffer.concat([head.subarray(0, 16), table])), true);
  out.set(head);
  let at = 20 + table.length;
  for (const s of list) {
    out.set(s.data, at);
    at += s.data.length;
  }
  return out;
}

const section = (f, name) => f.list.find((s) => s.id === IDS[name]);

/** Field `k` of record `i` in a table of `fields` u32 fields stored as byte planes. */
function setPlane(data, fields, i, k, value) {
  const count = data.length / (4 * fields);
  for (let p = 0; p < 4; p++) data[(4 * k + p) * count + i] = (value >>> (8 * p)) & 0xff;
}

/** LZ4 text (group 1) claiming 0x3FFFFFFF blocks; each chunk's block decodes to planted text. */
function lz4Wrap() {
  const f = sections(original);
  const chunks = section(f, 'chunks');
  const n = chunks.data.length / (4 * 9);
  const base = 4 * (n + 1);
  const block = Uint8Array.from([0x10, 0x41, 0x01, 0x00, 0x50, ...Buffer.from('PWNED')]); // "AAAAAPWNED"
  const data = new Uint8Array(8 + 4 * (n + 1) + 10 * n);
  const v = new DataView(data.buffer);
  v.setUint32(0, 1, true);
  v.setUint32(4, 0x3fffffff, true);
  for (let b = 0; b <= n; b++) v.setUint32(8 + 4 * b, base + 10 * b, true);
  for (let b = 0; b < n; b++) {
    data.set(block, 8 + 4 * (n + 1) + 10 * b);
    setPlane(chunks.data, 9, b, 0, base + 10 * b);
    setPlane(chunks.data, 9, b, 1, 10);
  }
  section(f, 'text').data = data;
  return assemble(f);
}

/** Two strings appended; the second's offsets wrap past 2³² to bytes 4..8 of the section. */
function stringsWrap() {
  const f = sections(original);
  const s = section(f, 'strings');
  const v = new DataView(s.data.buffer);
  const n = v.getUint32(0, true);
  const ends = Array.from({ length: n + 1 }, (_, i) => v.getUint32(4 + 4 * i, true));
  const cnt = n + 2;
  const base = 4 + 4 * (cnt + 1);
  const wrap = 2 ** 32 - base + 4;
  const data = new Uint8Array(base + ends[n]);
  const dv = new DataView(data.buffer);
  dv.setUint32(0, cnt, true);
  ends.forEach((e, i) => dv.setUint32(4 + 4 * i, e, true));
  dv.setUint32(4 + 4 * (n + 1), wrap, true);
  dv.setUint32(4 + 4 * (n + 2), wrap + 4, true);
  data.set(s.data.subarray(4 + 4 * (n + 1)), base);
  s.data = data;
  setPlane(section(f, 'sources').data, 6, 0, 1, n + 1); // the first source's title
  return assemble(f);
}

/**
 * Every way the served text or title could come out: each must throw a typed `corrupt` error, and
 * `named(engine)` the one whose message matches `message` (the native build's words).
 */
function refusedEverywhere(bytes, what, named, message) {
  const fresh = new gg.Engine();
  fresh.addInstance('constitution', bytes);
  assert.throws(() => named(fresh), (e) => e.code === 'corrupt' && message.test(e.message), what);
  const engine = new gg.Engine();
  try {
    engine.addInstance('constitution', bytes);
  } catch (e) {
    assert.equal(e.code, 'corrupt', `${what}: ${e.message}`);
    return;
  }
  const calls = {
    search: () => engine.search('constitution', '국회의원 임기', 5),
    read: () => engine.callTool('read', { instance: 'constitution', source: 'constitution', article: '제42조' }),
    sources: () => engine.callTool('sources', { instance: 'constitution' }),
    ask: () => engine.askJson('국회의원의 임기는 몇 년인가요?'),
  };
  for (const [name, call] of Object.entries(calls)) {
    let out;
    try {
      out = call();
    } catch (e) {
      assert.equal(e.code, 'corrupt', `${what}, ${name}: ${e.message}`);
      continue;
    }
    const text = JSON.stringify(out);
    assert.ok(!text.includes('PWNED') && !text.includes('\\u0000'), `${what}, ${name} served: ${text.slice(0, 300)}`);
  }
  // The engine is not poisoned: a good index still answers.
  engine.addInstance('good', original);
  assert.ok(engine.search('good', '국회의원 임기', 3).length > 0);
}

test('an LZ4 text table whose size wraps 32 bits is refused, not served', () => {
  refusedEverywhere(lz4Wrap(), 'lz4 wrap', (e) => e.search('constitution', '국회의원 임기', 5), /block table cut short/);
});

test('a string whose offsets wrap 32 bits is refused, not read from the offset table', () => {
  refusedEverywhere(stringsWrap(), 'strings wrap', (e) => e.callTool('sources', { instance: 'constitution' }),
    /spans 4294967300\.\.4294967304/);
});
