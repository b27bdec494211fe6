'use strict';
// Shared by the host tests: where things are (the assembled npm package in pkg/, the default
// indexes, the host tools build.sh installs under .cache/hosts/), and running processes without
// blocking the event loop (the fake API server answers on it while a client runs).

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'pkg', 'bin', 'groundgate.js');
const HOSTS = path.join(ROOT, '.cache', 'hosts');
const INDEXES = ['rnd', 'constitution', 'lohelp', 'pyfaq'].map((n) => path.join(ROOT, 'indexes', `${n}.ggi`));
const CLAUDE = process.env.GG_CLAUDE || path.join(HOSTS, 'claude', 'node_modules', '.bin', 'claude');

/** Fail with what to do when something a test needs is missing. */
function need(file, how) {
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: ${how}`);
  return file;
}

/** A fresh temporary directory (removed by the caller's `after`). */
function tmpdir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `gg-${prefix}-`));
}

/** Run a command; resolves {code, stdout, stderr, ms}. `input` is written to stdin. */
function run(cmd, args, { input, env, cwd, timeout = 120000 } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { env: env ?? process.env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ms: Number(process.hrtime.bigint() - t0) / 1e6,
      });
    });
    child.stdin.on('error', () => {}); // a process that exits early closes its stdin
    child.stdin.end(input ?? '');
  });
}

/** Median and maximum of numbers. */
function p50max(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: s[Math.floor((s.length - 1) / 2)], max: s[s.length - 1] };
}

module.exports = { ROOT, BIN, HOSTS, INDEXES, CLAUDE, need, tmpdir, run, p50max };
