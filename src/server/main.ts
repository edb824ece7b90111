import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

// A supervisor (systemd's TimeoutStopSec, Docker's stop timeout) kills after its own grace period;
// finish before it, and never hang forever on a client that does not let go.
const SHUTDOWN_GRACE_MS = 25_000;

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const { app } = await buildApp(config);

  // Graceful shutdown (docs/decisions/061-graceful-shutdown.md): app.close() stops accepting
  // connections, answers requests already on the wire (with `Connection: close`), closes the chat
  // sockets so their clients reconnect to another instance, then stops the mail worker after its
  // current pass and closes Redis and the database.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received, shutting down`);
    const force = setTimeout(() => {
      // Name what held it up, so the next shutdown can be fixed rather than just cut short.
      app.log.error({ pending: process.getActiveResourcesInfo() }, `shutdown took longer than ${SHUTDOWN_GRACE_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // A lost connection to Redis or PostgreSQL must cost requests (503), never the process; anything
  // that still escapes is logged, not turned into a crash loop that drops every client at once.
  process.on('unhandledRejection', (err) => app.log.error({ err }, 'unhandled rejection'));

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`${config.BRAND_NAME} is running at ${config.publicUrl}`);
  // Node 20 reached its end of life on 30 April 2026 (decision 131): it still runs, but say so.
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  if (nodeMajor < 22) app.log.warn(`Node.js ${process.version} is past its end of life: run Node 24 LTS (or 22 LTS) in production.`);
}

main().catch((err) => {
  console.error('Failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
