'use strict';
// Command-line flags, parsed the way the native CLI (clap) reads them: `--name value`,
// `--name=value`, boolean `--flag`, `-h` for `--help` (other short flags refused), options that
// take several values (`--index a.ggi b.ggi`: every following word up to the next word that starts
// with '-', as clap stops there; a value that starts with '-' is written `--name=-value`),
// positional words, and `--` ending the flags.
// A spec maps each flag to {type: 'string'|'boolean', multiple?, repeat?, choices?, default?,
// required?, requires?}: `multiple` takes every following word (clap's `num_args = 1..`), `multiple`
// with `repeat` one value per occurrence (`--index a --index b`). Every mistake is a UsageError (exit code 2), never a stack trace.

const fs = require('node:fs');

class UsageError extends Error {
  constructor(message) {
    super(message);
    this.name = 'UsageError';
    this.exitCode = 2;
  }
}

function parse(argv, spec, command) {
  const values = {};
  const positional = [];
  let i = 0;
  const take = (name, opt, inline) => {
    if (opt.type === 'boolean') {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      values[name] = true;
      return;
    }
    const got = [];
    if (inline !== undefined) got.push(inline);
    else {
      while (i < argv.length && !(argv[i].startsWith('-') && argv[i].length > 1)) {
        got.push(argv[i++]);
        if (!opt.multiple || opt.repeat) break;
      }
    }
    if (got.length === 0) {
      const next = argv[i];
      const tip = next !== undefined && next !== '--' && next.startsWith('-') ? ` (a value that starts with '-' is written --${name}=${next})` : '';
      throw new UsageError(`--${name} needs a value${tip}`);
    }
    for (const v of got) {
      if (opt.choices && !opt.choices.includes(v)) {
        throw new UsageError(`invalid value '${v}' for --${name}: one of ${opt.choices.join(', ')}`);
      }
    }
    if (opt.multiple) values[name] = [...(values[name] ?? []), ...got];
    else if (values[name] !== undefined) throw new UsageError(`--${name} given more than once`);
    else values[name] = got[0];
  };
  while (i < argv.length) {
    const a = argv[i++];
    if (a === '--') {
      positional.push(...argv.slice(i));
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const opt = spec[name];
      if (!opt) throw new UsageError(`unexpected argument '--${name}' for 'groundgate ${command}' (see --help)`);
      take(name, opt, eq < 0 ? undefined : a.slice(eq + 1));
    } else if (a.startsWith('-') && a.length > 1) {
      // Short flags, as clap reads them: `-h` is --help, any other is refused (a query word
      // that starts with '-' goes after `--`).
      if (a === '-h' && spec.help) values.help = true;
      else throw new UsageError(`unexpected argument '${a}' for 'groundgate ${command}' (see --help; words that start with '-' go after --)`);
    } else {
      positional.push(a);
    }
  }
  if (values.help) return { values, positional };
  for (const [name, opt] of Object.entries(spec)) {
    if (values[name] === undefined) {
      if (opt.required) throw new UsageError(`the argument '--${name}' is required for 'groundgate ${command}'`);
      if (opt.default !== undefined) values[name] = opt.default;
      else if (opt.type === 'boolean') values[name] = false;
    }
    if (opt.requires && values[name] !== undefined && values[name] !== false && !values[opt.requires]) {
      throw new UsageError(`--${name} requires --${opt.requires}`);
    }
  }
  return { values, positional };
}

/** Parse an integer flag value in `min..=max`. */
function integer(name, text, max = Number.MAX_SAFE_INTEGER, min = 0) {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) > max || Number(text) < min) {
    const what = min > 0 ? `an integer from ${min}` : 'a non-negative integer';
    throw new UsageError(`invalid value '${text}' for --${name}: ${what}${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''}`);
  }
  return Number(text);
}

/**
 * Text as the terminal shows it, as the native CLI does: control characters but line breaks and
 * tabs escaped (`\u{1b}`), so text from a crafted index (ESC sequences in a source id) cannot
 * drive the terminal.
 */
function printable(text) {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
}

/** The usage text of a command from its spec. */
function usage(command, summary, spec, positional) {
  const lines = [summary, '', `usage: groundgate ${command} [options]${positional ? ` ${positional}` : ''}`, ''];
  for (const [name, opt] of Object.entries(spec)) {
    const value = opt.type === 'boolean' ? '' : opt.multiple ? (opt.repeat ? ` <${opt.value ?? 'FILE'}> (repeat)` : ' <FILE>...') : ` <${opt.choices ? opt.choices.join('|') : 'VALUE'}>`;
    const def = opt.default !== undefined ? ` [default: ${opt.default}]` : opt.required ? ' (required)' : '';
    // A flag longer than the column gets one space before its help all the same.
    lines.push(`  --${name}${value}`.padEnd(33) + ` ${opt.help ?? ''}${def}`);
  }
  return lines.join('\n') + '\n';
}

const namedIndex = (p) => p.toLowerCase().endsWith('.ggi');
const isFile = (p) => fs.statSync(p, { throwIfNoEntry: false })?.isFile() === true;

/**
 * Words taken as the query (or prompt) that cannot be one, as the native CLI refuses them: an
 * index file (`search --index a.ggi b.ggi …` reads b.ggi as a word: each index needs its own
 * --index), and any word with --jsonl (the input comes from stdin).
 */
function misplaced(what, jsonl, words) {
  const w = words.find((p) => namedIndex(p) && isFile(p));
  if (w !== undefined) {
    throw new UsageError(`'${w}' is an index file, not a word of the ${what}: give each index its own --index (--index a.ggi --index b.ggi)`);
  }
  if (jsonl && words.length) throw new UsageError(`with --jsonl the input comes from stdin, one JSON object a line (unexpected '${words[0]}')`);
}

/** No query (or text) and no --jsonl: nothing to search for. */
function missing(what, jsonl, words) {
  if (!jsonl && !words.length) throw new UsageError(`no ${what}: give its words after the options (or --jsonl: one JSON object a line on stdin)`);
}

/** `ask --index a.ggi 농지 소작 금지`: --index takes every word up to the next flag; a prompt read as index paths. */
function promptAsIndex(index, prompt) {
  if (prompt.length) return;
  const w = index.find((p) => !namedIndex(p) && !isFile(p));
  if (w !== undefined) {
    throw new UsageError(`'${w}' is not an index file: --index takes every word up to the next flag; give the prompt before --index, or after --`);
  }
}

/** `1 chunk`, `2 chunks`: a count and an English noun in the number it takes (`deliver::log::count`). */
const count = (n, what) => (n === 1 ? `1 ${what}` : `${n} ${what}s`);

module.exports = { parse, integer, usage, misplaced, missing, promptAsIndex, printable, count, UsageError };
