// npm writes no lock entry for an optional platform binary that the registry here does not serve
// (e.g. @tailwindcss/oxide-darwin-arm64), and `npm ci` then refuses the lock as "out of sync".
// This adds those entries with their os/cpu so `npm ci` skips them on this platform, as it would
// with a complete lock. Run `npm run lock:fix` after every `npm install <pkg>` (docs/decisions/004).
import { readFileSync, writeFileSync } from 'node:fs';
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const pk = lock.packages;
let added = 0;
const osOf = (n) =>
  /darwin/.test(n)
    ? ['darwin']
    : /win32/.test(n)
      ? ['win32']
      : /freebsd/.test(n)
        ? ['freebsd']
        : /android/.test(n)
          ? ['android']
          : /openharmony/.test(n)
            ? ['openharmony']
            : /linux/.test(n)
              ? ['linux']
              : undefined;
const cpuOf = (n) =>
  /wasm32/.test(n)
    ? ['wasm32']
    : /arm64/.test(n)
      ? ['arm64']
      : /(arm-|armeabi|arm$)/.test(n)
        ? ['arm']
        : /x64/.test(n)
          ? ['x64']
          : /ia32/.test(n)
            ? ['ia32']
            : /loong64/.test(n)
              ? ['loong64']
              : /ppc64/.test(n)
                ? ['ppc64']
                : /riscv64/.test(n)
                  ? ['riscv64']
                  : /s390x/.test(n)
                    ? ['s390x']
                    : undefined;
for (const node of Object.values(pk)) {
  for (const [dep, range] of Object.entries(node.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    if (pk[key]) continue;
    const entry = { version: range.replace(/^[\^~]/, ''), optional: true, ...(node.dev ? { dev: true } : {}) };
    const os = osOf(dep),
      cpu = cpuOf(dep);
    if (cpu) entry.cpu = cpu;
    if (os) entry.os = os;
    pk[key] = entry;
    added++;
  }
}
writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n');
console.log('added', added);
