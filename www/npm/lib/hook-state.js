'use strict';
// Session dedup state on disk for hooks that run one process per prompt (Claude Code). One file a
// session (and set of indexes: `fileOf`) under the state directory, holding the engine's exported
// state (`Engine.exportSession`: `groundgate-session 1` then `INSTANCE CHUNK AT_MS` lines). A
// session's read-ask-write runs under a lock file (created with O_EXCL), so two prompts of one
// session at once neither lose nor repeat what was shown; files are replaced by rename, so a reader
// never sees half a file. Expired entries are dropped by the engine on import and export; files of
// sessions idle past the window are removed.

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** Engine's default dedup window (Config::default().dedup_window_ms): 30 minutes. */
const WINDOW_MS = 30 * 60 * 1000;
/** How long to wait for another prompt of the same session to finish. */
const LOCK_WAIT_MS = 3000;
/** A lock older than this was left by a killed process (a hook's own timeout is 10 s). */
const STALE_LOCK_MS = 15000;

/** The default state directory: under the OS temp dir. */
function defaultDir() {
  return path.join(os.tmpdir(), 'groundgate-claude-code');
}

/**
 * The state file of a session over the indexes `engine` holds (session ids are arbitrary text: the
 * name is a hash). The stored lines name chunks by number, which a rebuilt index gives to other
 * text: so the name also hashes each instance's name and content checksum, and a rebuilt index
 * (or another set of indexes) starts the session afresh instead of hiding its new chunks.
 */
function fileOf(dir, session, engine) {
  const hash = crypto.createHash('sha256').update(session);
  // Sorted: the same indexes in another --index order are the same session.
  for (const name of [...engine.instances()].sort()) hash.update(`\0${name}\0${engine.info(name).content_crc}`);
  return path.join(dir, `${hash.digest('hex').slice(0, 32)}.session`);
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Take the lock of `file`; returns a release function, or null after LOCK_WAIT_MS. A lock that is
 * stale but cannot be removed throws, as a lock that cannot be taken does.
 */
function lock(file) {
  const lockFile = `${file}.lock`;
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    let fd;
    try {
      fd = fs.openSync(lockFile, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => fs.rmSync(lockFile, { force: true });
    } catch (e) {
      if (e.code !== 'EEXIST') {
        // Taken but not written (a full disk …): give it back, or every later prompt of the
        // session would wait for it to go stale.
        if (fd !== undefined) {
          try {
            fs.closeSync(fd);
          } catch {
            // Closed already.
          }
          fs.rmSync(lockFile, { force: true });
        }
        throw e;
      }
    }
    if (Date.now() > until) return null;
    try {
      if (Date.now() - fs.statSync(lockFile).mtimeMs > STALE_LOCK_MS) {
        fs.rmSync(lockFile, { force: true }); // a lock it cannot remove (a folder, no permission) throws
        continue;
      }
    } catch (e) {
      if (e.code === 'ENOENT') continue; // released meanwhile
      throw e;
    }
    sleep(5);
  }
}

/** This module's own files: a state file (`fileOf`) and what a write may leave (`<file>.<pid>.tmp`). */
const OWN_FILE = /^[0-9a-f]{32}\.session(\.[0-9]+\.tmp)?$/;

/**
 * Remove this module's state files (and leftovers) untouched for longer than the window; nothing
 * else in `dir` (a `--state` folder may be shared with the user's own files); errors are ignored.
 */
function sweep(dir, now = Date.now()) {
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!OWN_FILE.test(name)) continue;
    const file = path.join(dir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > WINDOW_MS) fs.rmSync(file, { force: true });
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

/**
 * Create `dir` and any missing parents. Not `mkdirSync`'s `recursive`: under /proc (Node 20) it
 * loops for ever on a directory that cannot be made, and a hook must always end.
 */
function makeDir(dir) {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if (e.code === 'EEXIST' && fs.statSync(dir).isDirectory()) return;
    const parent = path.dirname(dir);
    if (e.code !== 'ENOENT' || parent === dir) throw e;
    makeDir(parent);
    fs.mkdirSync(dir, { mode: 0o700 });
  }
}

/**
 * Run `fn()` between loading `session`'s stored state into `engine` and storing what the engine
 * then holds for it. `warn(message)` is told about anything that degrades dedup (no lock, an
 * unreadable file); the prompt always goes on.
 */
function withSession(engine, dir, session, fn, warn) {
  try {
    makeDir(dir);
  } catch (e) {
    warn(`cannot use the state directory ${dir}: ${e.message}; going on without dedup`);
    return fn();
  }
  const file = fileOf(dir, session, engine);
  let release;
  try {
    release = lock(file);
  } catch (e) {
    warn(`cannot lock the session state ${file}: ${e.message}; going on without dedup`);
    return fn();
  }
  if (!release) warn(`session state ${file} is locked by another prompt; going on without waiting`);
  try {
    let text = null;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      if (e.code !== 'ENOENT') warn(`cannot read ${file}: ${e.message}`);
    }
    if (text !== null) {
      try {
        engine.importSession(session, text);
      } catch (e) {
        warn(`ignoring the session state in ${file}: ${e.message}`);
      }
    }
    const result = fn();
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, engine.exportSession(session), { mode: 0o600 });
      fs.renameSync(tmp, file);
    } catch (e) {
      warn(`cannot store the session state in ${file}: ${e.message}`);
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // Nothing was written, or it is not ours to remove.
      }
    }
    return result;
  } finally {
    if (release) release();
    sweep(dir);
  }
}

module.exports = { WINDOW_MS, defaultDir, fileOf, lock, sweep, withSession };
