'use strict';
// The indexer wasm module (indexer/, built from the crate's `indexer` feature) and Node's file system
// handed to it: Rust runs the same manifest pipeline as the native `groundgate build`.

const fs = require('node:fs');
const path = require('node:path');
const { systemMessage } = require('./load');

let loaded;

/** The indexer module, loaded on first use (it is ~0.9 MB; `ask` and `search` never load it). */
function module_() {
  loaded ??= require(path.join(__dirname, '..', 'indexer', 'groundgate_indexer.js'));
  return loaded;
}

/** Node's file system as the indexer's `HostFiles` (symlinks followed, as Rust's `is_file`). */
const nodeFiles = {
  kind(p) {
    try {
      const s = fs.statSync(p);
      return s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other';
    } catch {
      return 'other';
    }
  },
  list(p) {
    try {
      return fs.readdirSync(p);
    } catch (e) {
      throw new Error(systemMessage(e));
    }
  },
  read(p) {
    let stat;
    try {
      stat = fs.statSync(p);
    } catch (e) {
      throw new Error(systemMessage(e));
    }
    // A device or pipe (thesaurus = ["/dev/zero"]) would be read until memory runs out.
    if (!stat.isFile()) throw new Error('not a regular file');
    try {
      return fs.readFileSync(p);
    } catch (e) {
      throw new Error(systemMessage(e));
    }
  },
};

/**
 * Build the index a manifest describes, with Node alone: `{bytes: Uint8Array, stats}`. `text`
 * overrides the chunk text storage (`ranked` | `hangul` | `lz4` | `plain`); `progress(done, total)` after each file.
 */
function buildIndex(manifest, { text, progress } = {}) {
  const built = module_().buildIndex(manifest, nodeFiles, text, progress);
  try {
    return { bytes: built.bytes, stats: built.stats };
  } finally {
    built.free();
  }
}

module.exports = { module: module_, nodeFiles, buildIndex };
