'use strict';
// Loading what the commands need: the wasm module, index files into an Engine (instance name = the
// index's own name, as the native CLI does), and stdin as lines.

const fs = require('node:fs');
const path = require('node:path');

/** The wasm runtime (pkg/node), loaded on first use so that `--help` stays instant. */
let loaded = false;
function wasm() {
  loaded = true;
  return require(path.join(__dirname, '..', 'node', 'groundgate.js'));
}

/**
 * Call before the first `wasm()` in a process that answers one request and exits (the hook, a
 * one-prompt `ask`, a one-off tool call). V8's optimising tier compiles the hot wasm functions in
 * the background, and such a process then waits ~100 ms at exit for code no later call runs;
 * Liftoff, V8's baseline compiler, alone avoids that, with the same results. Streams (`--jsonl`,
 * `tool`, `mcp`) keep V8's defaults: over many requests the optimised code pays.
 */
function oneShot() {
  // Too late once the module is compiled: a command that does so is this package's bug, caught
  // by every test that runs it.
  if (loaded) throw new Error('internal: load.oneShot() after load.wasm()');
  require('node:v8').setFlagsFromString('--liftoff-only');
}

/**
 * Read a file, with the path in the message of any failure. A device is refused before it is read
 * (`--config /dev/zero` would be read until memory runs out); pipes are read as files are.
 */
function readFile(file) {
  try {
    const stat = fs.statSync(file);
    if (stat.isCharacterDevice() || stat.isBlockDevice()) throw new Error('a device, not a file');
    return fs.readFileSync(file);
  } catch (e) {
    throw new Error(`${file}: ${systemMessage(e)}`);
  }
}

/**
 * Where libuv words an error otherwise than the C library, the C library's words: the native CLI's
 * (`groundgate::os_message`).
 */
const LIBC_WORDS = { EISDIR: 'is a directory', ENAMETOOLONG: 'file name too long' };

/**
 * `ENOENT: no such file or directory, open 'x'` → `no such file or directory` (the system call and
 * path dropped), worded as the native CLI words it.
 */
function systemMessage(e) {
  if (e && typeof e.code === 'string' && typeof e.message === 'string' && e.message.startsWith(`${e.code}: `)) {
    return LIBC_WORDS[e.code] || e.message.slice(e.code.length + 2).replace(/, \w+( '.*')?$/, '');
  }
  return e && e.message ? e.message : String(e);
}

/** Prefix a groundgate error's message with the file it concerns, keeping its `code`. */
function withFile(file, e) {
  const err = new Error(`${file}: ${e && e.message ? e.message : String(e)}`);
  if (e && e.code) err.code = e.code;
  return err;
}

/**
 * An Engine with every index loaded; `now` fixes the clock (ms since the epoch). Every file is
 * verified as it is added (`addInstance` checks every checksum and that nothing follows the last
 * section), so a flipped bit in the stored text is a clear error at load, never evidence served
 * under a correct citation; `verify: false` skips it (about 1 ms per MB in wasm). With `skip`, a
 * file of several that cannot be loaded (missing, damaged, a duplicate) is passed to `skip(error)`
 * and left out; it throws only when none loads.
 */
function engine(files, { config, now, verify = true, skip } = {}) {
  const gg = wasm();
  const eng = new gg.Engine(config);
  if (now !== undefined) eng.setClock(now);
  const loaded = new Map();
  for (const file of files) {
    let bytes;
    try {
      bytes = readFile(file);
    } catch (e) {
      // `skip(error)`: a file that cannot be loaded is left out (the caller says so), unless none loads.
      if (skip && files.length > 1) {
        skip(e);
        continue;
      }
      eng.free();
      throw e;
    }
    let name;
    try {
      const index = new gg.Index(bytes); // reads the header only: the name
      try {
        name = index.info().name;
        // A damaged file is named as such before it is named a duplicate (as natively).
        if (verify && loaded.has(name)) index.verify();
      } finally {
        index.free();
      }
      if (loaded.has(name)) {
        const first = loaded.get(name);
        const err = new Error(first === file ? 'the same index is given twice'
          : `an index named ${JSON.stringify(name)} is already loaded from ${first} (an index takes its manifest's \`name\`: build one of them with another)`);
        err.code = 'invalid_argument';
        throw err;
      }
      loaded.set(name, file);
      eng.addInstance(name, bytes, { verify });
    } catch (e) {
      if (skip && files.length > 1) {
        skip(withFile(file, e));
        continue;
      }
      eng.free();
      throw withFile(file, e);
    }
  }
  if (skip && loaded.size === 0 && files.length > 1) {
    eng.free();
    throw new Error('none of the indexes could be loaded');
  }
  return eng;
}

/**
 * Throw when stdin is a folder (`< dir`): Node reads one as an empty stream, where the native CLI
 * names the error (an empty answer would hide the mistake).
 */
function stdinReadable() {
  let folder = false;
  try {
    folder = fs.fstatSync(0).isDirectory();
  } catch {
    // No stdin to look at (closed): it reads as empty, as natively.
  }
  if (folder) throw new Error(`stdin: ${LIBC_WORDS.EISDIR}`);
}

/**
 * Call `onLine(line, n)` for every line of stdin (split on `\n`, a trailing `\r` dropped, as Rust's
 * `lines()` does), in order, as lines arrive; resolves after the last one.
 */
function eachStdinLine(onLine) {
  stdinReadable();
  return new Promise((resolve, reject) => {
    const { StringDecoder } = require('node:string_decoder');
    const decoder = new StringDecoder('utf8');
    let pending = '';
    let n = 0;
    const emit = (line) => onLine(line.endsWith('\r') ? line.slice(0, -1) : line, n++);
    process.stdin.on('data', (chunk) => {
      try {
        pending += decoder.write(chunk);
        let at;
        while ((at = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, at);
          pending = pending.slice(at + 1);
          emit(line);
        }
      } catch (e) {
        process.stdin.destroy();
        reject(e);
      }
    });
    process.stdin.on('end', () => {
      try {
        pending += decoder.end();
        if (pending.length > 0) emit(pending);
        resolve();
      } catch (e) {
        reject(e);
      }
    });
    process.stdin.on('error', reject);
  });
}

/** Read all of stdin as text. */
function readStdin() {
  return new Promise((resolve, reject) => {
    const lines = [];
    eachStdinLine((l) => lines.push(l)).then(() => resolve(lines), reject);
  });
}

module.exports = { wasm, oneShot, readFile, systemMessage, withFile, engine, stdinReadable, eachStdinLine, readStdin };
