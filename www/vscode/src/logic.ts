// The extension's logic without the VS Code API, tested with node:test (tests/hosts/vscode_logic.test.js):
// the settings read and checked, loading index files into an Engine with readable errors, the slot
// that swaps engines under running requests, the engine settings, what the chat participant sends
// the model, citations as text and links, the language model tools' calls, and the REBEL opt-in (the
// model reranks the passages before the budget). extension.ts only wires these to VS Code.

import * as fs from 'node:fs';

/** The parts of the groundgate package this file uses (its `Engine` and `Index`). */
export interface Groundgate {
  Engine: { new (config?: object): Engine; searchContext(result: { results: Hit[] }): string };
  Index: new (bytes: Uint8Array) => { info(): { name: string; title: string; chunks: number; content_crc: number }; verify(): void; free(): void };
}

/** The parts of an Engine this file uses. */
export interface Engine {
  addInstance(name: string, bytes: Uint8Array): void;
  removeInstance(name: string): void;
  instances(): string[];
  ask(prompt: string, options?: object): Answer;
  callTool(name: string, args: unknown): unknown;
  rebelPrompt(args: object): RebelPrompt;
  rerankWith(prompt: RebelPrompt, reply: string): { items: (Citation & { id: number; ref: string })[]; ranking: string[] };
  free(): void;
}

/** The REBEL prompt object of the package (`engine.rebelPrompt`): the text and what the reply is checked against. */
export interface RebelPrompt {
  prompt: string;
  docs: (Citation & { id: number; ref: string; text: string })[];
}

export interface Citation {
  source: string;
  title: string;
  page: number | null;
  article: string | null;
  section: string | null;
  heading: string | null;
  date: string | null;
  link: string | null;
}
export interface Evidence extends Citation {
  instance: string;
  score: number;
  text: string;
}
export interface Hit extends Citation {
  rank: number;
  score: number;
  text: string;
  instance: string;
}
export interface Answer {
  route: 'push' | 'pull' | 'skip';
  kind: string;
  reasons: string[];
  evidence: Evidence[];
  hints: unknown[];
  context: string;
}

/** Settings the extension reads (package.json `contributes.configuration`). */
export interface Settings {
  indexes: string[];
  instanceBudget: number;
  totalBudget: number;
  format: 'short' | 'detailed';
  /** Opt-in: the chat model reranks the passages (REBEL, one turn) before the budget. */
  rebel: boolean;
}

/** Each setting's default and bounds, as package.json `contributes.configuration` declares them. */
export const SETTING_BOUNDS = {
  instanceBudget: { default: 3600, minimum: 100, maximum: 20000 },
  totalBudget: { default: 3600, minimum: 100, maximum: 40000 },
} as const;
const FORMATS = ['short', 'detailed'] as const;

/**
 * The settings from `get(key)` (VS Code hands back whatever settings.json holds, unchecked): a value
 * of the wrong type or out of bounds is replaced by its default and named in `problems`, as
 * `groundgate.<key>: …`. A single path given for `indexes` counts as a list of one.
 */
export function readSettings(get: (key: string) => unknown): { settings: Settings; problems: string[] } {
  const problems: string[] = [];
  const show = (v: unknown): string => {
    const text = JSON.stringify(v);
    return text === undefined ? String(v) : text.length > 80 ? `${text.slice(0, 80)}…` : text;
  };
  let indexes: string[] = [];
  const raw = get('indexes');
  if (typeof raw === 'string') {
    indexes = raw.trim() ? [raw] : [];
  } else if (Array.isArray(raw)) {
    indexes = raw.filter((p): p is string => typeof p === 'string' && p.trim() !== '');
    if (indexes.length < raw.length) problems.push(`groundgate.indexes: ${raw.length - indexes.length} entr${raw.length - indexes.length === 1 ? 'y is' : 'ies are'} not a file path (a non-empty string); left out`);
  } else if (raw !== undefined && raw !== null) {
    problems.push(`groundgate.indexes: expected a list of index file paths, got ${show(raw)}; using every .ggi file in the workspace`);
  }
  const budget = (key: keyof typeof SETTING_BOUNDS): number => {
    const b = SETTING_BOUNDS[key];
    const v = get(key);
    if (v === undefined || v === null) return b.default;
    if (typeof v === 'number' && Number.isInteger(v) && v >= b.minimum && v <= b.maximum) return v;
    problems.push(`groundgate.${key}: expected a whole number of characters from ${b.minimum} to ${b.maximum}, got ${show(v)}; using ${b.default}`);
    return b.default;
  };
  const instanceBudget = budget('instanceBudget');
  const totalBudget = budget('totalBudget');
  let format: Settings['format'] = 'short';
  const f = get('format');
  if (typeof f === 'string' && (FORMATS as readonly string[]).includes(f)) format = f as Settings['format'];
  else if (f !== undefined && f !== null) problems.push(`groundgate.format: expected "short" or "detailed", got ${show(f)}; using "short"`);
  let rebel = false;
  const r = get('rebel');
  if (typeof r === 'boolean') rebel = r;
  else if (r !== undefined && r !== null) problems.push(`groundgate.rebel: expected true or false, got ${show(r)}; using false`);
  return { settings: { indexes, instanceBudget, totalBudget, format, rebel }, problems };
}

/**
 * Holds the engine requests run against. A reload puts a new engine in while requests may still be
 * running on the old one (a chat request waits for the model): the old engine is freed when its last
 * request ends, never under it.
 */
export class EngineSlot {
  private engine: Engine | undefined;
  private readonly users = new Map<Engine, number>();
  private readonly retired = new Set<Engine>();

  /** The engine new requests get (undefined before the first load and after dispose). */
  get current(): Engine | undefined {
    return this.engine;
  }

  /** Put `next` in; the previous engine is freed now, or when its running requests end. */
  replace(next: Engine | undefined): void {
    const old = this.engine;
    this.engine = next;
    if (old && old !== next) this.retire(old);
  }

  /** Run `fn` on the current engine, which stays alive until `fn` settles. */
  async use<T>(fn: (engine: Engine) => T | Promise<T>): Promise<T> {
    const engine = this.engine;
    if (!engine) throw new Error('groundgate: no index is loaded');
    this.users.set(engine, (this.users.get(engine) ?? 0) + 1);
    try {
      return await fn(engine);
    } finally {
      const left = (this.users.get(engine) ?? 1) - 1;
      if (left > 0) this.users.set(engine, left);
      else {
        this.users.delete(engine);
        if (this.retired.delete(engine)) engine.free();
      }
    }
  }

  /** Free the current engine (running requests keep theirs until they end). */
  dispose(): void {
    this.replace(undefined);
  }

  private retire(engine: Engine): void {
    if (this.users.has(engine)) this.retired.add(engine);
    else engine.free();
  }
}

/**
 * Read an index file. Only a regular file is read: a device (`/dev/zero`) would be read until memory
 * runs out, a pipe would block the extension host.
 */
export function readIndexFile(file: string): Uint8Array {
  const stat = fs.statSync(file);
  if (stat.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${file}'`), { code: 'EISDIR' });
  if (!stat.isFile()) throw new Error('not a regular file (a device, pipe or socket)');
  return fs.readFileSync(file);
}

/** A loaded index. */
export interface Loaded {
  name: string;
  file: string;
  title: string;
  chunks: number;
  /** The index's content checksum (its meta's `content_crc`): another value, another content. */
  contentCrc: number;
}

/** An index file that could not be loaded, with a message a person can act on. */
export interface LoadError {
  file: string;
  message: string;
  /** A second index of a name already loaded (the file itself is fine). */
  duplicate?: boolean;
}

/** The Engine settings from the extension's settings (the total budget is never below one instance's). */
export function engineConfig(s: Settings): object {
  return { instance_budget: s.instanceBudget, total_budget: Math.max(s.totalBudget, s.instanceBudget) };
}

/** "file: what is wrong" for any failure to read or open an index. */
function describe(file: string, e: unknown): string {
  const err = e as { code?: string; message?: string };
  const why = err && typeof err.message === 'string' ? err.message : String(e);
  const hint: Record<string, string> = {
    bad_magic: 'not a groundgate index (.ggi)',
    unsupported_version: 'built by another groundgate version: rebuild it with `groundgate build`',
    truncated: 'the file is cut short',
    checksum: 'the file is damaged (checksum mismatch)',
    corrupt: 'the file is damaged',
    ENOENT: 'no such file',
    EISDIR: 'a folder, not an index file',
  };
  const code = err && typeof err.code === 'string' ? err.code : '';
  return hint[code] ? `${file}: ${hint[code]} (${why})` : `${file}: ${why}`;
}

/**
 * Load index files into a new Engine, each verified first. Each file's instance name is the index's
 * own name (a second index of the same name is reported, not loaded). Never throws for a bad file: it is listed in
 * `errors` and the others load.
 */
export function loadIndexes(
  gg: Groundgate,
  files: string[],
  readFile: (file: string) => Uint8Array,
  settings: Settings,
): { engine: Engine; loaded: Loaded[]; errors: LoadError[] } {
  const engine = new gg.Engine(engineConfig(settings));
  const loaded: Loaded[] = [];
  const errors: LoadError[] = [];
  for (const file of files) {
    try {
      const bytes = readFile(file);
      const index = new gg.Index(bytes);
      let meta: { name: string; title: string; chunks: number; content_crc: number };
      try {
        meta = index.info(); // the header only: `addInstance` checks every checksum
        // A damaged file is reported as such before it is reported as a duplicate.
        if (loaded.some((l) => l.name === meta.name)) index.verify();
      } finally {
        index.free();
      }
      const first = loaded.find((l) => l.name === meta.name);
      if (first) {
        const message = first.file === file
          ? `${file}: the same index is given twice`
          : `${file}: an index named "${meta.name}" is already loaded from ${first.file} (an index takes its manifest's \`name\`: build one of them with another)`;
        errors.push({ file, message, duplicate: true });
        continue;
      }
      engine.addInstance(meta.name, bytes); // a damaged file is reported, never served as evidence
      loaded.push({ name: meta.name, file, title: meta.title, chunks: meta.chunks, contentCrc: meta.content_crc });
    } catch (e) {
      errors.push({ file, message: describe(file, e) });
    }
  }
  return { engine, loaded, errors };
}

/** A citation in one line: title · p.N · 제N조 · §section heading · as of date. */
export function citationLabel(c: Citation): string {
  const parts = [c.title];
  if (c.page != null) parts.push(`p.${c.page}`);
  if (c.article) parts.push(c.article);
  const sec = [c.section ? `§${c.section}` : '', c.heading ?? ''].filter(Boolean).join(' ');
  if (sec) parts.push(sec);
  if (c.date) parts.push(`as of ${c.date}`);
  return parts.join(' · ');
}

/** The verdict shown at the top of the chat answer. */
export function verdict(a: Answer): string {
  const instances = [...new Set(a.evidence.map((e) => e.instance))];
  switch (a.route) {
    case 'push':
      return `groundgate: **push** — ${a.evidence.length} cited excerpt${a.evidence.length === 1 ? '' : 's'} from ${instances.join(', ')}`;
    case 'pull':
      return `groundgate: **pull** (${a.kind}) — no evidence injected; searching instead`;
    default:
      return 'groundgate: **skip** — nothing in the loaded indexes for this prompt';
  }
}

/** The evidence block for a pull's hits, rendered by the package as `ask` renders its context: each
 * source named once on an `[Sn]` line, each hit cited by that label and its location, `<` and `>` in
 * the documents' text neutralised so that no document can close the block. */
export function hitsBlock(gg: Groundgate, hits: Hit[]): string {
  return gg.Engine.searchContext({ results: hits });
}

/**
 * What the participant sends the model: the evidence block, the delivery rule in the prompt's
 * language (as the Claude Code hook does; here without tools to search with), the prompt.
 */
export function modelPrompt(prompt: string, block: string): string {
  if (!block) return prompt;
  const rule = rebelLang(prompt) === 'ko'
    ? '위 근거로 답하고 주장마다 [n] 인용을 붙이세요. 근거가 답이 되지 않으면 "근거 부족"이라고 말하세요.'
    : 'Answer from the evidence above and cite every claim as [n]; if it does not answer the question, say the evidence is insufficient.';
  return `${block}${rule}\n\n${prompt}`;
}

/**
 * The participant's own search for a pull (the package's `search` tool): the instance `ask`'s hints
 * name when they name one (the instance the gate found the prompt about), else every loaded
 * instance; then as many whole hits, best first, as `budget` characters of text hold (at least one).
 */
export function pullSearch(engine: Engine, query: string, k = 5, hints: unknown[] = [], budget = Infinity): Hit[] {
  const named = new Set<string>();
  for (const h of hints) {
    const hint = h as { tool?: unknown; arguments?: { instance?: unknown } } | null;
    if (hint && hint.tool === 'search' && typeof hint.arguments?.instance === 'string') named.add(hint.arguments.instance);
  }
  const instance = named.size === 1 ? [...named][0] : undefined;
  const r = engine.callTool('search', { query: query.slice(0, 20000), k, ...(instance ? { instance } : {}) }) as { results: Hit[] };
  const kept: Hit[] = [];
  let chars = 0;
  for (const hit of r.results) {
    chars += hit.text.length;
    if (kept.length > 0 && chars > budget) break;
    kept.push(hit);
  }
  return kept;
}

/** The five pull tools, by their language-model tool name in package.json. */
export const TOOLS: Record<string, string> = {
  groundgate_search: 'search',
  groundgate_grep: 'grep',
  groundgate_sources: 'sources',
  groundgate_read: 'read',
  groundgate_links: 'links',
};

/**
 * Run a language model tool through the package's `callTool` (the tools' one home). Returns the JSON
 * text the model gets; bad input throws the package's Error (with its `code` and a message naming
 * the field).
 */
export function invokeTool(engine: Engine, toolName: string, input: unknown): string {
  const tool = TOOLS[toolName];
  if (!tool) throw new Error(`unknown tool ${toolName}`);
  return JSON.stringify(engine.callTool(tool, input ?? {}));
}

/** Resolve configured index paths against the workspace folder. */
export function resolvePaths(paths: string[], folder: string | undefined, join: (a: string, b: string) => string, isAbsolute: (p: string) => boolean): string[] {
  return paths.map((p) => (isAbsolute(p) || !folder ? p : join(folder, p)));
}

/** What `askWithRebel` did: the answer, and a line for the user about the rerank ('' when it did not run). */
export interface RebelOutcome {
  answer: Answer;
  note: string;
}

/** The prompt language for REBEL: Korean when the prompt has Hangul. */
export function rebelLang(prompt: string): 'ko' | 'en' {
  return /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]/.test(prompt) ? 'ko' : 'en';
}

/**
 * `ask` with the REBEL opt-in (setting `groundgate.rebel`). Off, or when the prompt is not pushed,
 * it is `engine.ask(prompt, options)`. On and pushed: the package builds the one-turn REBEL prompt
 * over the search results (`rebelPrompt`, `k` passages), `send` gets the model's reply, the package's
 * strict parser checks it and orders the passages (`rerankWith`), and `ask` applies that order
 * before the budget (`rerank: {ranking, mode: "order"}`). A failed request or a reply the parser
 * rejects keeps the BM25 order, and the note says why. The verdict never depends on the model.
 */
export async function askWithRebel(
  engine: Engine,
  prompt: string,
  options: { session?: string; format?: string },
  rebel: { enabled: boolean; k?: number },
  send: (text: string) => Promise<string>,
): Promise<RebelOutcome> {
  if (!rebel.enabled) return { answer: engine.ask(prompt, options), note: '' };
  // A probe without the session (it records nothing): is there anything to rerank?
  const probe = engine.ask(prompt, { format: options.format });
  if (probe.route !== 'push') return { answer: engine.ask(prompt, options), note: '' };
  const keep = (why: string): RebelOutcome => ({ answer: engine.ask(prompt, options), note: `REBEL rerank not applied (${why}); BM25 order kept.` });
  let p: RebelPrompt;
  try {
    p = engine.rebelPrompt({ query: prompt.slice(0, 20000), lang: rebelLang(prompt), k: rebel.k ?? 8 });
  } catch (e) {
    return keep(`no prompt: ${(e as Error).message}`);
  }
  let reply: string;
  try {
    reply = await send(p.prompt);
  } catch (e) {
    return keep(`the model did not answer: ${(e as Error).message}`);
  }
  let ranking: string[];
  try {
    ranking = engine.rerankWith(p, reply).ranking;
  } catch (e) {
    return keep(`the model's ranking was rejected: ${(e as Error).message}`);
  }
  const answer = engine.ask(prompt, { ...options, rerank: { ranking, mode: 'order' } });
  return { answer, note: `REBEL rerank by the model applied: ${p.docs.length} passages ordered by relevance and depth, diversity, clarity, authority, recency.` };
}
