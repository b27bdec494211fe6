// The groundgate VS Code extension: wires logic.ts to VS Code — the `@groundgate` chat participant,
// the language model tools (search, grep, sources, read, links), an MCP server definition, the
// commands (ask about the selection, add an index, show the loaded indexes, reload them), a status
// bar item, the settings, and watchers that reload a changed index. The engine is the groundgate npm
// package's Node build (wasm), bundled by esbuild.

import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as groundgate from 'groundgate';
import {
  type Answer,
  type Citation,
  type Engine,
  EngineSlot,
  type Groundgate,
  type Hit,
  type LoadError,
  type Loaded,
  type Settings,
  TOOLS,
  askWithRebel,
  citationLabel,
  hitsBlock,
  invokeTool,
  loadIndexes,
  modelPrompt,
  pullSearch,
  readIndexFile,
  readSettings,
  resolvePaths,
  verdict,
} from './logic';

const slot = new EngineSlot();
let loaded: Loaded[] = [];
let errors: LoadError[] = [];
let status: vscode.StatusBarItem;
let output: vscode.OutputChannel;
const mcpChanged = new vscode.EventEmitter<void>();
/** Most .ggi files a workspace scan loads. */
const SCAN_LIMIT = 50;

/** The settings, checked; a bad value is named once per reload (output and a message). */
function settings(): { settings: Settings; problems: string[] } {
  const c = vscode.workspace.getConfiguration('groundgate');
  return readSettings((key) => c.get(key));
}

function workspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/**
 * The index files: the setting, or every .ggi file in the workspace (shallowest first, so a copy
 * under a build folder does not shadow the one at the top) — not in an untrusted workspace.
 */
async function indexFiles(s: Settings): Promise<{ files: string[]; scanned: boolean; note?: string }> {
  if (s.indexes.length > 0) return { files: resolvePaths(s.indexes, workspaceFolder(), path.join, path.isAbsolute), scanned: false };
  if (!vscode.workspace.isTrusted) {
    return { files: [], scanned: true, note: 'untrusted workspace: its .ggi files are not loaded (list indexes in your user settings, groundgate.indexes, or trust the workspace)' };
  }
  const found = await vscode.workspace.findFiles('**/*.ggi', '**/node_modules/**', SCAN_LIMIT);
  const depth = (f: string) => f.split(path.sep).length;
  const files = found.map((u) => u.fsPath).sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
  const note = files.length >= SCAN_LIMIT ? `the workspace holds ${SCAN_LIMIT} or more .ggi files: only ${SCAN_LIMIT} were loaded; list the ones to use in groundgate.indexes` : undefined;
  return { files, scanned: true, note };
}

let generation = 0;

/**
 * (Re)load every index; bad files and bad settings are reported, never fatal. Reloads may overlap
 * (a workspace scan takes time): only the latest one's result is kept. The engine in use stays
 * until the new one is built, and is freed when its running requests end.
 */
async function reload(): Promise<void> {
  const gen = ++generation;
  const { settings: s, problems } = settings();
  let found: { files: string[]; scanned: boolean; note?: string };
  try {
    found = await indexFiles(s);
  } catch (e) {
    problems.push(`cannot look for index files: ${(e as Error).message}`);
    found = { files: [], scanned: true };
  }
  if (gen !== generation) return; // a newer reload is under way
  let r: ReturnType<typeof loadIndexes>;
  try {
    r = loadIndexes(groundgate as unknown as Groundgate, found.files, readIndexFile, s);
  } catch (e) {
    const message = `groundgate: the indexes were not reloaded: ${(e as Error).message}`;
    output.appendLine(message);
    void vscode.window.showErrorMessage(message);
    return;
  }
  slot.replace(r.engine);
  loaded = r.loaded;
  errors = r.errors;
  watchLoaded();
  output.appendLine(`loaded ${loaded.map((l) => `${l.name} (${l.file})`).join(', ') || 'no index'}`);
  if (found.note) output.appendLine(`note: ${found.note}`);
  for (const p of problems) output.appendLine(`setting: ${p}`);
  for (const e of errors) output.appendLine(`${e.duplicate && found.scanned ? 'skipped' : 'error'}: ${e.message}`);
  // A scan meets copies of one index (a build folder's): skipped quietly, listed in the output.
  const shown = [...problems, ...errors.filter((e) => !(e.duplicate && found.scanned)).map((e) => e.message)];
  if (shown.length > 0) {
    void vscode.window.showErrorMessage(`groundgate: ${shown.length === 1 ? shown[0] : `${shown.length} problems with the settings or index files (see the groundgate output)`}`);
  }
  status.text = shown.length > 0 ? `$(warning) groundgate ${loaded.length}` : `$(book) groundgate ${loaded.length}`;
  status.tooltip = loaded.length ? `groundgate indexes: ${loaded.map((l) => l.name).join(', ')}` : `groundgate: no index loaded${found.note ? ` (${found.note})` : ''}`;
  status.show();
  mcpChanged.fire();
}

let pending: ReturnType<typeof setTimeout> | undefined;

/** Reload once things settle (a build writes an index in several steps). */
function reloadSoon(): void {
  if (pending) clearTimeout(pending);
  pending = setTimeout(() => {
    pending = undefined;
    void reload();
  }, 500);
}

/** Watchers of the loaded files outside the workspace (the workspace's .ggi files have their own). */
let outside: vscode.FileSystemWatcher[] = [];

function watchLoaded(): void {
  for (const w of outside) w.dispose();
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath + path.sep);
  const files = [...loaded.map((l) => l.file), ...errors.map((e) => e.file)];
  outside = files
    .filter((f) => path.isAbsolute(f) && !folders.some((d) => f.startsWith(d)))
    .map((f) => {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(f)), path.basename(f)));
      w.onDidChange(reloadSoon);
      w.onDidCreate(reloadSoon);
      w.onDidDelete(reloadSoon);
      return w;
    });
}

function reference(stream: vscode.ChatResponseStream, c: Citation): void {
  if (!c.link) return;
  try {
    stream.reference(vscode.Uri.parse(c.link, true));
  } catch {
    // A link that is not a URI stays in the sources list only.
  }
}

/**
 * The conversation so far, for the model: this participant's earlier prompts and answers (the
 * evidence of earlier turns is not repeated; each turn gets its own).
 */
function history(context: vscode.ChatContext): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  for (const turn of context.history) {
    if (turn instanceof vscode.ChatRequestTurn) out.push(vscode.LanguageModelChatMessage.User(turn.prompt));
    else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response
        .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
        .join('');
      if (text) out.push(vscode.LanguageModelChatMessage.Assistant(text));
    }
  }
  return out;
}

const participant: vscode.ChatRequestHandler = async (request, context, stream, token) => {
  if (!slot.current || loaded.length === 0) {
    stream.markdown('groundgate: no index is loaded. Run **groundgate: Add an Index…** or set `groundgate.indexes`.');
    return {};
  }
  // The engine stays alive for the whole request, whatever a reload does meanwhile.
  return slot.use((engine) => answerWith(engine, request, context, stream, token));
};

async function answerWith(
  engine: Engine,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  let answer: Answer;
  let note = '';
  const { settings: s } = settings();
  // The REBEL opt-in: the chat's own model reranks the passages before the budget.
  const send = async (text: string): Promise<string> => {
    const r = await request.model.sendRequest([vscode.LanguageModelChatMessage.User(text)], {}, token);
    let out = '';
    for await (const part of r.text) out += part;
    return out;
  };
  try {
    const rebel = { enabled: s.rebel && request.model !== undefined };
    // No session dedup: the model sees only this turn's evidence, so every turn gets its best.
    ({ answer, note } = await askWithRebel(engine, request.prompt, { format: s.format }, rebel, send));
  } catch (e) {
    stream.markdown(`groundgate: ${(e as Error).message}`);
    return { errorDetails: { message: (e as Error).message } };
  }
  stream.markdown(`${verdict(answer)}\n\n`);
  if (note) {
    output.appendLine(note);
    stream.markdown(`_${note}_\n\n`);
  }
  let block = '';
  let cited: Citation[] = [];
  if (answer.route === 'push') {
    block = answer.context;
    cited = answer.evidence;
  } else if (answer.route === 'pull') {
    stream.progress('Searching the indexes…');
    const hits: Hit[] = pullSearch(engine, request.prompt, 5, answer.hints, Math.max(s.totalBudget, s.instanceBudget));
    block = hitsBlock(groundgate as unknown as Groundgate, hits);
    cited = hits;
  }
  for (const c of cited) reference(stream, c);
  const messages = [...history(context), vscode.LanguageModelChatMessage.User(modelPrompt(request.prompt, block))];
  const response = await request.model.sendRequest(messages, {}, token);
  for await (const part of response.text) stream.markdown(part);
  if (cited.length > 0) {
    const lines = cited.map((c, i) => `${i + 1}. ${citationLabel(c)}${c.link ? ` — [source](${c.link})` : ''}`);
    stream.markdown(`\n\n**Sources**\n\n${lines.join('\n')}\n`);
  }
  return { metadata: { route: answer.route } };
}

/** How a file is written into groundgate.indexes: relative inside the first workspace folder, else absolute. */
function settingPath(file: string): string {
  const folder = workspaceFolder();
  const rel = folder ? path.relative(folder, file) : '';
  return folder && rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

async function addIndex(): Promise<void> {
  const found = vscode.workspace.isTrusted ? await vscode.workspace.findFiles('**/*.ggi', '**/node_modules/**', 100) : [];
  const browse = 'Browse…';
  const picks = [...found.map((u) => ({ label: vscode.workspace.asRelativePath(u), file: u.fsPath })), { label: browse, file: '' }];
  const pick = await vscode.window.showQuickPick(picks, { placeHolder: 'An index file (.ggi) to load' });
  if (!pick) return;
  let file = pick.file;
  if (pick.label === browse && !file) {
    const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'groundgate index': ['ggi'] } });
    if (!chosen?.[0]) return;
    file = chosen[0].fsPath;
  }
  const c = vscode.workspace.getConfiguration('groundgate');
  const { settings: s } = settings();
  const base = s.indexes.length > 0 ? s.indexes : loaded.map((l) => settingPath(l.file));
  const resolve = (p: string) => resolvePaths([p], workspaceFolder(), path.join, path.isAbsolute)[0];
  if (base.some((p) => path.resolve(resolve(p)) === path.resolve(file))) {
    void vscode.window.showInformationMessage(`groundgate: ${settingPath(file)} is already in groundgate.indexes.`);
    return;
  }
  // The workspace's settings in a trusted workspace, else the user's (an untrusted workspace's own
  // groundgate.indexes is ignored: restrictedConfigurations), with absolute paths; the change reloads.
  const workspace = vscode.workspace.isTrusted && (vscode.workspace.workspaceFolders?.length ?? 0) > 0;
  const target = workspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  const list = workspace ? [...base, settingPath(file)] : [...base.map(resolve), file];
  await c.update('indexes', list, target);
}

async function showIndexes(): Promise<void> {
  const items: vscode.QuickPickItem[] = [
    ...loaded.map((l) => ({ label: `$(book) ${l.name}`, description: `${l.chunks} chunks`, detail: `${l.title} — ${l.file}` })),
    ...errors.map((e) => ({ label: '$(warning) not loaded', detail: e.message })),
  ];
  if (items.length === 0) items.push({ label: 'No index loaded', detail: 'Run "groundgate: Add an Index…"' });
  await vscode.window.showQuickPick(items, { placeHolder: 'groundgate indexes' });
}

async function askSelection(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const text = editor ? editor.document.getText(editor.selection).trim() : '';
  if (!text) {
    void vscode.window.showInformationMessage('groundgate: select some text first.');
    return;
  }
  // Ask mode: chat participants do not run in agent mode.
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@groundgate ${text}`, mode: 'ask' });
}

/** The bundled package's bin, for the MCP server definition (present in the .vsix). */
function mcpServers(context: vscode.ExtensionContext): vscode.McpServerDefinition[] {
  const bin = context.asAbsolutePath(path.join('dist', 'groundgate', 'bin', 'groundgate.js'));
  if (loaded.length === 0 || !fs.existsSync(bin)) return [];
  const args = [bin, 'mcp', ...loaded.flatMap((l) => ['--index', l.file])];
  // The version names the loaded indexes and their contents: VS Code restarts a running server
  // when it changes (another index, a rebuilt one).
  const version = crypto.createHash('sha256').update(loaded.map((l) => `${l.file}\0${l.contentCrc}`).join('\0')).digest('hex').slice(0, 12);
  return [new vscode.McpStdioServerDefinition('groundgate', process.execPath, args, { ELECTRON_RUN_AS_NODE: '1' }, version)];
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('groundgate');
  status = vscode.window.createStatusBarItem('groundgate.status', vscode.StatusBarAlignment.Right, 100);
  status.name = 'groundgate';
  status.command = 'groundgate.showIndexes';
  context.subscriptions.push(output, status, mcpChanged);
  const chat = vscode.chat.createChatParticipant('groundgate.chat', participant);
  chat.iconPath = new vscode.ThemeIcon('book');
  context.subscriptions.push(chat);
  for (const name of Object.keys(TOOLS)) {
    context.subscriptions.push(
      vscode.lm.registerTool(name, {
        invoke: async (options) => {
          const text = await slot.use((engine) => invokeTool(engine, name, options.input));
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
        },
      }),
    );
  }
  context.subscriptions.push(
    vscode.lm.registerMcpServerDefinitionProvider('groundgate.mcp', {
      onDidChangeMcpServerDefinitions: mcpChanged.event,
      provideMcpServerDefinitions: () => mcpServers(context),
    }),
    vscode.commands.registerCommand('groundgate.askSelection', askSelection),
    vscode.commands.registerCommand('groundgate.addIndex', addIndex),
    vscode.commands.registerCommand('groundgate.showIndexes', showIndexes),
    vscode.commands.registerCommand('groundgate.reloadIndexes', reload),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // The format and the REBEL opt-in are read per request; the rest needs the indexes again.
      if (['indexes', 'instanceBudget', 'totalBudget'].some((k) => e.affectsConfiguration(`groundgate.${k}`))) void reload();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void reload()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void reload()),
  );
  // A .ggi file of the workspace written, added or removed (a rebuild): load again.
  const ggi = vscode.workspace.createFileSystemWatcher('**/*.ggi');
  ggi.onDidChange(reloadSoon);
  ggi.onDidCreate(reloadSoon);
  ggi.onDidDelete(reloadSoon);
  context.subscriptions.push(ggi, { dispose: () => outside.forEach((w) => w.dispose()) });
  await reload();
}

export function deactivate(): void {
  generation++; // a reload still scanning keeps nothing
  if (pending) clearTimeout(pending);
  slot.dispose();
}
