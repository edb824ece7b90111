import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { collectAccountData } from './collect-account-data.ts';
import { EXPORTS_PER_HOUR, takeExportSlot } from './export-limit.ts';
import { exportZipStream } from './export-zip.ts';
import { route } from '../../lib/route.ts';
import { getUserExport } from '../../../contract/account.ts';

const MB = 1024 * 1024;

/** "Download all my data" (decision 193): always the signed-in person's own. */
export const accountExportRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getUserExport,
    {
      config: perSession(10),
      preHandler: requireUser(deps.db),
      schema: {
        tags: ['users'],
        summary: 'Download all my data: a ZIP of data.json, README.txt, invoice PDFs and order files',
        description: `No id: only the signed-in person's data. ${EXPORTS_PER_HOUR} per hour (429 beyond).`,
        security: [{ bearer: [] }],
      },
    },
    async (request, reply) => {
      const { user, sessionId } = authOf(request);
      await takeExportSlot(deps, user.id);
      const collected = await collectAccountData(deps, user, sessionId);
      const day = collected.data.exportedAt.slice(0, 10);
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="my-data-${day}.zip"`)
        .header('cache-control', 'no-store')
        .send(exportZipStream(deps, user.id, collected, { filesLimitBytes: Math.floor(deps.config.EXPORT_FILES_MAX_MB * MB) }));
    },
  );
};
