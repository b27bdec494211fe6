// Build the extension offline: type-check (tsc), bundle src/extension.ts with the groundgate package
// into dist/extension.js (esbuild; `vscode` stays external), copy the package's wasm next to it
// (esbuild moves __dirname to dist/), bundle the package's bin for the MCP server definition into
// dist/groundgate/, and with --package make the .vsix (@vscode/vsce) at target/hosts/groundgate.vsix.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const pkg = path.join(here, 'node_modules', 'groundgate');
const dist = path.join(here, 'dist');
const bin = (name) => path.join(here, 'node_modules', '.bin', name);

execFileSync(bin('tsc'), ['-p', path.join(here, 'tsconfig.json')], { stdio: 'inherit' });
fs.rmSync(dist, { recursive: true, force: true });
await esbuild.build({
  entryPoints: [path.join(here, 'src', 'extension.ts')],
  outfile: path.join(dist, 'extension.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  logLevel: 'warning',
});
fs.copyFileSync(path.join(pkg, 'node', 'groundgate_bg.wasm'), path.join(dist, 'groundgate_bg.wasm'));
// The package's bin for the MCP server definition, bundled into one file with its runtime
// dependencies (the MCP SDK, resolved from the repository's node_modules: root package.json pins it)
// beside the package's wasm build it loads at run time (dist/groundgate/node/).
const staged = path.join(dist, 'groundgate');
fs.cpSync(path.join(pkg, 'node'), path.join(staged, 'node'), { recursive: true, dereference: true });
await esbuild.build({
  entryPoints: [path.join(pkg, 'bin', 'groundgate.js')],
  outfile: path.join(staged, 'bin', 'groundgate.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
});
if (process.argv.includes('--package')) {
  const out = path.join(root, 'target', 'hosts', 'groundgate.vsix');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  execFileSync(bin('vsce'), ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], { cwd: here, stdio: 'inherit' });
}
