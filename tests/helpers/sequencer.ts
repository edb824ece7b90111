// The order in which vitest hands the files to its workers (vite.config.ts `sequence.sequencer`).
// Vitest runs the files it has timings for longest first, but a fresh clone (CI) has none, and then
// it runs the largest files first — which put the small files that start other processes (a
// compiled server, a script, a crashed app) last, where they decided when the last worker ended.
// They go first here, so the rest of the files fill the other worker meanwhile
// (docs/decisions/305-slow-test-files.md). A renamed file only loses its place in the list.
import type { TestSequencer, TestSpecification, Vitest } from 'vitest/node';

const FIRST = [
  'tests/api/runtime/crash-after-commit.test.ts',
  'src/server/db/backup.test.ts',
  'tests/api/runtime/faults.test.ts',
  'src/server/features/order-files/backup-files.test.ts',
  'src/server/features/passkeys/reset-passkeys.test.ts',
  'tests/api/runtime/start.test.ts',
  'src/server/features/chat/multi-instance.test.ts',
  'tests/api/runtime/shutdown.test.ts',
];

// vitest/node is imported when vitest sorts, not when the config is read: `vite build` reads the
// same vite.config.ts.
const base = async (ctx: Vitest) => new (await import('vitest/node')).BaseSequencer(ctx);

export class ProcessFilesFirst implements TestSequencer {
  constructor(private readonly ctx: Vitest) {}

  async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await base(this.ctx)).shard(files);
  }

  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await (await base(this.ctx)).sort(files);
    const rank = (spec: TestSpecification) => {
      const i = FIRST.findIndex((path) => spec.moduleId.endsWith(`/${path}`));
      return i === -1 ? FIRST.length : i;
    };
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
