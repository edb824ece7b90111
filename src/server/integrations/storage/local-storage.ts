import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { assertKey, byteLimit, ObjectMissingError, type FileStorage } from './file-storage.ts';

/**
 * Files in a folder (FILE_STORAGE=local, default DATA_DIR/files). A key is a relative path; an
 * object is written to a ".partial" name and renamed when complete, so a reader never sees half a
 * file and a crash leaves only ".partial" leftovers.
 */
export function createLocalStorage(root: string, opts: { removeOnClose?: boolean } = {}): FileStorage {
  const pathOf = (key: string) => join(root, ...assertKey(key).split('/'));
  const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

  return {
    kind: 'local',
    async put(key, body, { maxBytes }) {
      const target = pathOf(key);
      const partial = `${target}.partial`;
      await mkdir(dirname(target), { recursive: true });
      const limit = byteLimit(maxBytes);
      try {
        await pipeline(body, limit, createWriteStream(partial, { flags: 'wx' }));
        await rename(partial, target);
      } catch (err) {
        await rm(partial, { force: true });
        throw err;
      }
      return { size: limit.bytes() };
    },
    async get(key) {
      const path = pathOf(key);
      // Open first, so a missing file is an ObjectMissingError here and not a stream error later.
      const stream = createReadStream(path);
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', (err) => reject(missing(err) ? new ObjectMissingError(key) : err));
      });
      return stream as Readable;
    },
    async stat(key) {
      try {
        const s = await stat(pathOf(key));
        return { size: s.size };
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async move(from, to) {
      const target = pathOf(to);
      await mkdir(dirname(target), { recursive: true });
      await rename(pathOf(from), target);
    },
    async delete(key) {
      try {
        await unlink(pathOf(key));
      } catch (err) {
        if (!missing(err)) throw err;
      }
    },
    async *list(prefix) {
      const base = join(root, ...prefix.split('/').filter(Boolean));
      let entries;
      try {
        entries = await readdir(base, { recursive: true, withFileTypes: true });
      } catch (err) {
        if (missing(err)) return;
        throw err;
      }
      for (const e of entries) {
        if (!e.isFile() || e.name.endsWith('.partial')) continue;
        yield relative(root, join(e.parentPath, e.name)).split(sep).join('/');
      }
    },
    async close() {
      if (opts.removeOnClose) await rm(root, { recursive: true, force: true });
    },
  };
}
