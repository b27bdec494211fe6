'use strict';
// Test-only extension for the groundgate VS Code end-to-end test (tests/hosts/vscode.test.js), run in
// a real code-server. It registers a language model that records every request it gets (as JSON
// lines in $GG_VSCODE_TEST_OUT/messages.jsonl) and answers with a fixed text; then, once groundgate
// is active, it lists the language model tools, invokes groundgate_search through vscode.lm, and
// opens the chat with a question for @groundgate — the same calls agent mode and a user make. After
// the answer: a setting with a bad value (the tools must keep working), the setting undone, the
// Reload Indexes command, the same question again in the same chat (the second turn), and Ask
// about the Selection on an editor's selected text.

const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');

const OUT = process.env.GG_VSCODE_TEST_OUT;
const REPLY = 'Recorded reply: the cap is in the evidence [1].';

function write(name, value) {
  if (OUT) fs.writeFileSync(path.join(OUT, name), typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

function textOf(message) {
  const parts = Array.isArray(message.content) ? message.content : [message.content];
  return parts.map((p) => (typeof p === 'string' ? p : p && typeof p.value === 'string' ? p.value : '')).join('');
}

const model = {
  id: 'recorder',
  name: 'Recording test model',
  family: 'recorder',
  version: '1',
  maxInputTokens: 200000,
  maxOutputTokens: 4000,
  isUserSelectable: true,
  capabilities: {},
};

const provider = {
  provideLanguageModelChatInformation: () => [model],
  provideLanguageModelChatResponse: async (_model, messages, _options, progress) => {
    const record = messages.map((m) => ({ role: m.role, text: textOf(m) }));
    if (OUT) fs.appendFileSync(path.join(OUT, 'messages.jsonl'), `${JSON.stringify(record)}\n`);
    progress.report(new vscode.LanguageModelTextPart(REPLY));
  },
  provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text : textOf(text)).length / 4),
};

async function drive() {
  const gg = vscode.extensions.getExtension('groundgate.groundgate-vscode');
  if (!gg) throw new Error('the groundgate extension is not installed');
  await gg.activate();
  write('tools.json', vscode.lm.tools.map((t) => t.name));
  const result = await vscode.lm.invokeTool('groundgate_search', { input: { query: '연구수당 계상 한도', k: 3 }, toolInvocationToken: undefined });
  write('tool.json', result.content.map((p) => (p && typeof p.value === 'string' ? p.value : '')).join(''));
  let bad;
  try {
    await vscode.lm.invokeTool('groundgate_search', { input: { query: '' }, toolInvocationToken: undefined });
  } catch (e) {
    bad = String(e && e.message);
  }
  write('tool-error.txt', bad ?? '(no error)');
  const ask = () => vscode.commands.executeCommand('workbench.action.chat.open', { query: '@groundgate 연구수당은 얼마까지 계상할 수 있나요?', modelSelector: { vendor: 'groundgate-test' } });
  await ask();
  await until(() => requests() >= 1);
  // A bad value in settings.json (VS Code does not check it): groundgate names it and keeps serving.
  const config = vscode.workspace.getConfiguration('groundgate');
  await config.update('instanceBudget', '2000', vscode.ConfigurationTarget.Global);
  await sleep(1500);
  write('tool-bad-setting.json', await search());
  await config.update('instanceBudget', undefined, vscode.ConfigurationTarget.Global);
  await vscode.commands.executeCommand('groundgate.reloadIndexes');
  write('tool-reloaded.json', await search());
  await ask();
  await until(() => requests() >= 2);
  // Ask about the Selection: selected text in an editor goes to @groundgate in Ask mode.
  const doc = await vscode.workspace.openTextDocument({ content: '연구수당은 인건비의 몇 퍼센트까지인가요?', language: 'plaintext' });
  const editor = await vscode.window.showTextDocument(doc);
  editor.selection = new vscode.Selection(0, 0, 0, doc.lineAt(0).text.length);
  await vscode.commands.executeCommand('groundgate.askSelection');
  await until(() => requests() >= 3);
  write('ready.json', { ok: true });
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

async function until(fn, ms = 60000) {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out: ${fn}`);
    await sleep(200);
  }
}

/** Model requests recorded so far. */
function requests() {
  const file = path.join(OUT, 'messages.jsonl');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').length : 0;
}

/** groundgate_search through vscode.lm: the result text, or the error. */
async function search() {
  try {
    const r = await vscode.lm.invokeTool('groundgate_search', { input: { query: '연구수당 계상 한도', k: 2 }, toolInvocationToken: undefined });
    return r.content.map((p) => (p && typeof p.value === 'string' ? p.value : '')).join('');
  } catch (e) {
    return JSON.stringify({ error: String(e && e.message) });
  }
}

function activate(context) {
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider('groundgate-test', provider));
  drive().catch((e) => write('error.txt', String(e && e.stack ? e.stack : e)));
}

module.exports = { activate, REPLY };
