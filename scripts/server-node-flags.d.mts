// Types for server-node-flags.mjs (plain JavaScript: scripts/start.mjs runs without a TypeScript loader).
export declare const SERVER_NODE_FLAGS: string[];
