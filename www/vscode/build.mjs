// Build the extension offline: type-check (tsc), bundle src/extension.ts with the groundgate package
// into dist/extension.js (esbuild; `vscode` stays external), copy the package's wasm next to it
// (esbuild moves __dirname to dist/), stage the package's bin for the MCP server definition in
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
// The package's own bin (MCP server), without its dev files; its runtime dependencies are installed
// beside it when packaging.
const staged = path.join(dist, 'groundgate');
for (const part of ['bin', 'lib', 'node', 'package.json']) {
  fs.cpSync(path.join(pkg, part), path.join(staged, part), { recursive: true, dereference: true });
}
if (process.argv.includes('--package')) {
  execFileSync('npm', ['install', '--omit=dev', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: staged, stdio: 'inherit' });
  const out = path.join(root, 'target', 'hosts', 'groundgate.vsix');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  execFileSync(bin('vsce'), ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], { cwd: here, stdio: 'inherit' });
}
