// How the server and its scripts are bundled for plain `node` (docs/decisions/060-compiled-server.md):
// one ES module, packages kept external (several read their own files at run time relative to where
// they are installed: PGlite's WASM and data, pdfkit's fonts), and the SQL migrations copied beside the
// bundle, since db/migrate.ts reads `./migrations/` next to itself. Used by scripts/build-server.mjs
// and by the tests that compile a script once instead of loading it through tsx at every start
// (tests/helpers/compiled-script.ts).
import { cpSync } from 'node:fs';
import { join } from 'node:path';

export const SERVER_BUNDLE = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' };

/** Copies the migrations into `dir`, the folder of a bundle. */
export function copyMigrationsInto(dir) {
  cpSync('src/server/db/migrations', join(dir, 'migrations'), { recursive: true });
}
