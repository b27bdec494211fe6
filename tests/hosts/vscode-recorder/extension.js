'use strict';
// Test-only extension for the groundgate VS Code end-to-end test (tests/hosts/vscode.test.js), run in
// a real code-server. It registers a language model that records every request it gets (as JSON
// lines in $GG_VSCODE_TEST_OUT/messages.jsonl) and answers with a fixed text; then, once groundgate
// is active, it lists the language model tools, invokes groundgate_search through vscode.lm, and
// opens the chat with a question for @groundgate — the same calls agent mode and a user make.

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
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@groundgate 연구수당은 얼마까지 계상할 수 있나요?', modelSelector: { vendor: 'groundgate-test' } });
  write('ready.json', { ok: true });
}

function activate(context) {
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider('groundgate-test', provider));
  drive().catch((e) => write('error.txt', String(e && e.stack ? e.stack : e)));
}

module.exports = { activate, REPLY };
