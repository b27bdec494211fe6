// The groundgate VS Code extension: wires logic.ts to VS Code — the `@groundgate` chat participant,
// the language model tools (search, grep, sources, read, links), an MCP server definition, the
// commands (ask about the selection, add an index, show the loaded indexes), a status bar item and
// the settings. The engine is the groundgate npm package's Node build (wasm), bundled by esbuild.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as groundgate from 'groundgate';
import {
  type Answer,
  type Citation,
  type Engine,
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
  resolvePaths,
  verdict,
} from './logic';

let engine: Engine | undefined;
let loaded: Loaded[] = [];
let errors: LoadError[] = [];
let status: vscode.StatusBarItem;
let output: vscode.OutputChannel;
const mcpChanged = new vscode.EventEmitter<void>();

function settings(): Settings {
  const c = vscode.workspace.getConfiguration('groundgate');
  return {
    indexes: c.get<string[]>('indexes', []),
    instanceBudget: c.get<number>('instanceBudget', 3600),
    totalBudget: c.get<number>('totalBudget', 3600),
    format: c.get<'short' | 'detailed'>('format', 'short'),
    rebel: c.get<boolean>('rebel', false),
  };
}

function workspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** The index files: the setting, or every .ggi file in the workspace. */
async function indexFiles(s: Settings): Promise<string[]> {
  if (s.indexes.length > 0) return resolvePaths(s.indexes, workspaceFolder(), path.join, path.isAbsolute);
  const found = await vscode.workspace.findFiles('**/*.ggi', '**/node_modules/**', 50);
  return found.map((u) => u.fsPath).sort();
}

/** (Re)load every index; bad files are reported, never fatal. */
async function reload(): Promise<void> {
  const s = settings();
  const files = await indexFiles(s);
  engine?.free();
  const r = loadIndexes(groundgate as unknown as Groundgate, files, (f) => fs.readFileSync(f), s);
  engine = r.engine;
  loaded = r.loaded;
  errors = r.errors;
  output.appendLine(`loaded ${loaded.map((l) => `${l.name} (${l.file})`).join(', ') || 'no index'}`);
  for (const e of errors) output.appendLine(`error: ${e.message}`);
  if (errors.length > 0) {
    void vscode.window.showErrorMessage(`groundgate: ${errors.length === 1 ? errors[0].message : `${errors.length} index files could not be loaded (see the groundgate output)`}`);
  }
  status.text = errors.length > 0 ? `$(warning) groundgate ${loaded.length}` : `$(book) groundgate ${loaded.length}`;
  status.tooltip = loaded.length ? `groundgate indexes: ${loaded.map((l) => l.name).join(', ')}` : 'groundgate: no index loaded';
  status.show();
  mcpChanged.fire();
}

function reference(stream: vscode.ChatResponseStream, c: Citation): void {
  if (!c.link) return;
  try {
    stream.reference(vscode.Uri.parse(c.link, true));
  } catch {
    // A link that is not a URI stays in the sources list only.
  }
}

const participant: vscode.ChatRequestHandler = async (request, _context, stream, token) => {
  if (!engine || loaded.length === 0) {
    stream.markdown('groundgate: no index is loaded. Run **groundgate: Add an Index…** or set `groundgate.indexes`.');
    return {};
  }
  let answer: Answer;
  let note = '';
  const s = settings();
  // The REBEL opt-in: the chat's own model reranks the passages before the budget.
  const send = async (text: string): Promise<string> => {
    const r = await request.model.sendRequest([vscode.LanguageModelChatMessage.User(text)], {}, token);
    let out = '';
    for await (const part of r.text) out += part;
    return out;
  };
  try {
    const rebel = { enabled: s.rebel && request.model !== undefined };
    ({ answer, note } = await askWithRebel(engine, request.prompt, { session: vscode.env.sessionId, format: s.format }, rebel, send));
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
    const hits: Hit[] = pullSearch(engine, request.prompt);
    block = hitsBlock(groundgate as unknown as Groundgate, hits);
    cited = hits;
  }
  for (const c of cited) reference(stream, c);
  const messages = [vscode.LanguageModelChatMessage.User(modelPrompt(request.prompt, block))];
  const response = await request.model.sendRequest(messages, {}, token);
  for await (const part of response.text) stream.markdown(part);
  if (cited.length > 0) {
    const lines = cited.map((c, i) => `${i + 1}. ${citationLabel(c)}${c.link ? ` — [source](${c.link})` : ''}`);
    stream.markdown(`\n\n**Sources**\n\n${lines.join('\n')}\n`);
  }
  return { metadata: { route: answer.route } };
};

async function addIndex(): Promise<void> {
  const found = await vscode.workspace.findFiles('**/*.ggi', '**/node_modules/**', 100);
  const browse = 'Browse…';
  const picks = [...found.map((u) => vscode.workspace.asRelativePath(u)), browse];
  const pick = await vscode.window.showQuickPick(picks, { placeHolder: 'An index file (.ggi) to load' });
  if (!pick) return;
  let file = pick;
  if (pick === browse) {
    const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'groundgate index': ['ggi'] } });
    if (!chosen?.[0]) return;
    file = chosen[0].fsPath;
  }
  const c = vscode.workspace.getConfiguration('groundgate');
  const current = c.get<string[]>('indexes', []);
  const base = current.length > 0 ? current : loaded.map((l) => vscode.workspace.asRelativePath(l.file));
  if (!base.includes(file)) await c.update('indexes', [...base, file], vscode.ConfigurationTarget.Workspace);
  await reload();
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
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@groundgate ${text}` });
}

/** The bundled package's bin, for the MCP server definition (present in the .vsix). */
function mcpServers(context: vscode.ExtensionContext): vscode.McpServerDefinition[] {
  const bin = context.asAbsolutePath(path.join('dist', 'groundgate', 'bin', 'groundgate.js'));
  if (loaded.length === 0 || !fs.existsSync(bin)) return [];
  const args = [bin, 'mcp', ...loaded.flatMap((l) => ['--index', l.file])];
  return [new vscode.McpStdioServerDefinition('groundgate', process.execPath, args, { ELECTRON_RUN_AS_NODE: '1' })];
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
          if (!engine) throw new Error('groundgate: no index is loaded');
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(invokeTool(engine, name, options.input))]);
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
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('groundgate')) void reload();
    }),
  );
  await reload();
}

export function deactivate(): void {
  engine?.free();
  engine = undefined;
}
