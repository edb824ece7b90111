// autocannon ships no types; only what bench/api.ts uses.
declare module 'autocannon' {
  interface Result {
    requests: { average: number; total: number };
    latency: { p99: number };
    errors: number;
    non2xx: number;
  }
  interface Options {
    url: string;
    connections: number;
    duration: number;
    headers?: Record<string, string>;
    requests?: { setupRequest?: (req: { headers?: Record<string, string> }) => unknown }[];
  }
  export default function autocannon(opts: Options): Promise<Result>;
}
