// A TypeScript entry (a script under scripts/, or a test's child program) compiled once to one
// plain-JavaScript module, so a test that starts it many times pays esbuild once instead of tsx's
// loader in every process: 1–3 s a start on this machine when it is busy
// (docs/decisions/305-slow-test-files.md). Bundled as the server is (scripts/server-bundle.mjs).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { copyMigrationsInto, SERVER_BUNDLE } from '../../scripts/server-bundle.mjs';

export interface CompiledScript {
  /** The compiled module: run it with `node <file> …`. */
  file: string;
  remove(): void;
}

export function compileScript(entry: string): CompiledScript {
  // Inside the checkout (dist/ is git-ignored): packages stay external, so Node must find
  // node_modules above the bundle.
  mkdirSync('dist', { recursive: true });
  const dir = resolve(mkdtempSync(join('dist', '.test-script-')));
  const file = join(dir, 'bin', basename(entry).replace(/\.ts$/, '.mjs'));
  buildSync({ ...SERVER_BUNDLE, entryPoints: [entry], outfile: file });
  copyMigrationsInto(join(dir, 'bin'));
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
