'use strict';
// `groundgate build`: manifest → index file with Node alone (the indexer wasm); the same bytes as
// the native CLI's `groundgate build`.

const fs = require('node:fs');
const path = require('node:path');
const { parse, usage, count, UsageError } = require('./args');
const { systemMessage } = require('./load');

const summary = 'Build an index from a manifest.';
const spec = {
  manifest: { type: 'string', required: true, help: 'the instance manifest (TOML)' },
  out: { type: 'string', required: true, help: 'where to write the index (.ggi)' },
  quiet: { type: 'boolean', help: 'no progress line' },
  text: { type: 'string', choices: ['ranked', 'hangul', 'lz4', 'plain'], help: 'override the manifest\'s chunk text storage' },
  help: { type: 'boolean', help: 'this text' },
};

/**
 * Throw unless the index may be written to `out`: over nothing, an empty file or an index — the
 * library's rule (`checkOut`, as the native CLI), told what is there: never a directory, link,
 * device or pipe, nor a manifest or a document that a slip of `--out` names.
 */
function checkOut(out) {
  let kind = 'missing';
  let head;
  try {
    kind = fs.lstatSync(out).isFile() ? 'file' : 'other';
  } catch {
    // Missing (or under a missing folder, created later): nothing to replace.
  }
  if (kind === 'file') {
    try {
      const fd = fs.openSync(out, 'r');
      try {
        const buf = Buffer.alloc(8);
        head = buf.subarray(0, fs.readSync(fd, buf, 0, 8, 0));
      } finally {
        fs.closeSync(fd);
      }
    } catch (e) {
      throw new Error(`${out}: ${systemMessage(e)}`);
    }
  }
  require('./indexer').module().checkOut(out, kind, head);
}

async function run(argv) {
  const { values: a, positional } = parse(argv, spec, 'build');
  if (a.help) return process.stdout.write(usage('build', summary, spec));
  if (positional.length) throw new UsageError(`unexpected argument '${positional[0]}' (name the manifest with --manifest)`);
  if (a.out === '') throw new UsageError('--out: name the index file to write');
  checkOut(a.out);
  const started = process.hrtime.bigint();
  const tty = !a.quiet && process.stderr.isTTY;
  const progress = tty ? (done, total) => process.stderr.write(`\rbuilding: ${done}/${total} files`) : undefined;
  const { bytes, stats } = require('./indexer').buildIndex(a.manifest, { text: a.text, progress });
  if (tty) process.stderr.write('\r\x1b[K');
  const tmp = a.out.replace(/(\.[^./]*)?$/, '.ggi.tmp');
  try {
    const dir = path.dirname(a.out);
    if (dir) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(tmp, bytes);
    fs.renameSync(tmp, a.out);
  } catch (e) {
    try {
      fs.rmSync(tmp, { force: true }); // a failed rename leaves no half-written index behind
    } catch {
      // Never written, or not a file.
    }
    throw new Error(`${a.out}: ${systemMessage(e)}`);
  }
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  const ratio = stats.bytes / Math.max(stats.text_bytes, 1);
  process.stdout.write(
    `${stats.name}: ${count(stats.documents, 'document')}, ${count(stats.chunks, 'chunk')}, ${stats.terms} terms, ${stats.bytes} bytes ` +
      `(${ratio.toFixed(2)} × the ${stats.text_bytes} bytes of text), ${secs.toFixed(2)} s → ${a.out}\n`,
  );
  if (stats.note) process.stderr.write(`${stats.note}\n`);
}


module.exports = { summary, run };
