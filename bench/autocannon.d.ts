// autocannon ships no types; only what bench/api.ts uses.
declare module 'autocannon' {
  interface Result {
    requests: { average: number };
    latency: { p99: number };
    errors: number;
    non2xx: number;
  }
  export default function autocannon(opts: { url: string; connections: number; duration: number }): Promise<Result>;
}
