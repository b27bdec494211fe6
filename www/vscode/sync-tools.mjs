// Write the language model tools of package.json (`contributes.languageModelTools`: each tool's
// modelDescription and inputSchema) from the package's own tool definitions
// (`Engine.toolDefinitions()`, the tools' one home), keeping the extension's names, titles, icons and
// user descriptions. Run after a tool's definition changes: `node www/vscode/sync-tools.mjs` (needs
// pkg/ built); tests/hosts/vscode_logic.test.js fails while package.json disagrees.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const gg = require(path.join(here, '..', '..', 'pkg', 'node', 'groundgate.js'));
const file = path.join(here, 'package.json');
const pj = JSON.parse(fs.readFileSync(file, 'utf8'));
const defs = gg.Engine.toolDefinitions();
for (const tool of pj.contributes.languageModelTools) {
  const def = defs.find((d) => `groundgate_${d.name}` === tool.name);
  if (!def) throw new Error(`package.json declares ${tool.name}, which the package does not define`);
  tool.modelDescription = def.description;
  tool.inputSchema = def.inputSchema;
}
fs.writeFileSync(file, `${JSON.stringify(pj, null, 2)}\n`);
