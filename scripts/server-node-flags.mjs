// The Node flags the compiled server runs with in production (docs/decisions/111-pglite-memory.md).
// Everything that starts `dist/server/main.js` for real uses them: scripts/start.mjs, the benches and
// the runtime tests here; the Dockerfile's CMD and deploy/systemd/webagency@.service name them literally.
//
// --liftoff-only: V8 compiles WebAssembly with its baseline compiler only, never TurboFan. The
//   embedded database (PGlite) is a WASM PostgreSQL; its optimised code is ~45 MB of resident memory
//   that kept PGlite over its 250 MB budget (281–288 MB settled, 226–231 MB with the flag). The chat
//   and API figures did not get slower at the measured rates (decision 111). No effect without WASM,
//   so a PostgreSQL deployment is unchanged.
// --max-semi-space-size=8: caps V8's young generation at 8 MB per semi-space. Node 24's V8 sizes it
//   from the heap limit and grows it far beyond Node 20's, which put the same server at 333–347 MB
//   settled on Node 24 against ~230 MB on Node 20; with the cap, 217–219 MB on Node 24. Chat at 500
//   messages/s on PGlite: p99 7.7 ms with it, 47.8 ms without, in the same busy hour (decision 111).
export const SERVER_NODE_FLAGS = ['--liftoff-only', '--max-semi-space-size=8'];
