// Types for server-bundle.mjs (plain JavaScript: scripts/build-server.mjs runs without a TypeScript loader).
import type { BuildOptions } from 'esbuild';

export declare const SERVER_BUNDLE: BuildOptions;
export declare function copyMigrationsInto(dir: string): void;
