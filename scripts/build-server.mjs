// `npm run build` (last step): compiles the server to one plain-JavaScript ES module,
// dist/server/main.js, so `npm start` runs it with plain `node` — no TypeScript loader in
// production (docs/decisions/060-compiled-server.md).
// How it is bundled (packages external, migrations beside it): scripts/server-bundle.mjs.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { copyMigrationsInto, SERVER_BUNDLE } from './server-bundle.mjs';

const OUT = process.env.SERVER_DIST_DIR ?? 'dist/server';

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const started = Date.now();
await build({
  ...SERVER_BUNDLE,
  entryPoints: ['src/server/main.ts'],
  outfile: `${OUT}/main.js`,
  sourcemap: 'linked',
  // Stack traces and logs keep readable names; the bundle is not shipped to browsers.
  minify: false,
});
copyMigrationsInto(OUT);
console.log(`server compiled to ${OUT}/main.js in ${Date.now() - started} ms`);

// An initialised, empty PGlite data directory beside the server's folder (db/client.ts copies it
// into a new DATA_DIR): PGlite's initdb takes ~10 s and ~900 MB at its peak, which is paid here,
// once per PGlite version, instead of by the server on its first start (decision 060).
const template = join(dirname(OUT), 'pglite-template');
const version = JSON.parse(readFileSync('node_modules/@electric-sql/pglite/package.json', 'utf8')).version;
const stamp = join(template, '.pglite-version');
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== version) {
  const t = Date.now();
  // Built aside and renamed into place: several builds may run at once (the runtime tests).
  const aside = `${template}.${process.pid}`;
  rmSync(aside, { recursive: true, force: true });
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(aside);
  await db.waitReady;
  await db.close();
  writeFileSync(join(aside, '.pglite-version'), version);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === version) rmSync(aside, { recursive: true, force: true });
  else {
    rmSync(template, { recursive: true, force: true });
    renameSync(aside, template);
  }
  console.log(`PGlite data directory template in ${template} (${Date.now() - t} ms)`);
}
