import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';
import { migrate } from './migrate.ts';
import { users } from './schema/platform.ts';

describe('embedded database', () => {
  it('keeps data across a restart and applies migrations once', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pglite-'));
    try {
      const first = await openDatabase({ dataDir: dir });
      expect((await migrate(first)).length).toBeGreaterThan(0);
      await first.db.insert(users).values({ email: 'keep@example.com' });
      await first.close();

      const second = await openDatabase({ dataDir: dir });
      expect(await migrate(second)).toEqual([]);
      const rows = await second.db.select().from(users).where(eq(users.email, 'keep@example.com'));
      expect(rows).toHaveLength(1);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
