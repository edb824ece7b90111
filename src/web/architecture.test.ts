import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  deepFeatureImports,
  folderCycles,
  type Graph,
  serverCallsInEffects,
  webFolderEdges,
} from '../../tests/helpers/web-architecture.ts';

// src/web held to the server's folder rules (docs/decisions/338-web-reads-and-folder-rules.md):
// no folder cycles, features import each other only through a feature's public index.ts, and no
// server call inside an effect (reads go through useOperation). Each rule is first shown failing on
// planted input, then run on the real tree (the graph of src/server/architecture.test.ts: madge).

interface MadgeResult {
  obj(): Graph;
}
const madge = createRequire(import.meta.url)('madge') as (path: string, config: { fileExtensions: string[] }) => Promise<MadgeResult>;
const SRC = fileURLToPath(new URL('..', import.meta.url));

describe('the web rules, on planted input', () => {
  it('a folder cycle fails, through features and top folders alike', () => {
    const graph: Graph = {
      'web/features/a/x.tsx': ['web/features/b/index.ts'],
      'web/features/b/index.ts': ['web/features/b/y.tsx'],
      'web/features/b/y.tsx': ['web/lib/z.ts'],
      'web/lib/z.ts': ['web/features/a/index.ts'],
      'web/features/a/index.ts': ['web/features/a/x.tsx'],
    };
    expect(folderCycles(webFolderEdges(graph))).toEqual(['features/a → features/b → lib → features/a']);
    // The same graph without the back edge has none.
    expect(folderCycles(webFolderEdges({ ...graph, 'web/lib/z.ts': [] }))).toEqual([]);
  });

  it("an import into another feature's inner file fails; its index.ts and the feature's own files pass", () => {
    const graph: Graph = {
      'web/features/a/x.tsx': ['web/features/b/y.tsx', 'web/features/b/index.ts', 'web/features/a/w.tsx', 'web/lib/call.ts'],
      // An island's DOM code imports the file it needs (no barrel in a public page's script).
      'web/features/a/banner-dom.ts': ['web/features/b/y-dom.ts'],
    };
    expect(deepFeatureImports(graph)).toEqual(['web/features/a/x.tsx → web/features/b/y.tsx']);
  });

  it('call() inside useEffect fails, directly, in a nested function or through a function of the file', () => {
    const planted = `
      export function Screen({ id }) {
        const [data, setData] = useState(null);
        useEffect(() => {
          call(getThing, { params: { id } }).then(setData);
        }, [id]);
        return null;
      }
      export function Other({ id }) {
        const load = useCallback(async () => setData(await call(getOther, { params: { id } })), [id]);
        useEffect(() => {
          void load();
        }, [load]);
        useLayoutEffect(() => {
          const go = async () => runOperation(postThing, {});
          go();
        }, []);
        return null;
      }`;
    expect(serverCallsInEffects(planted, 'planted.tsx')).toEqual([
      '5: call(getThing, { params: { id } })',
      '10: call(getOther, { params: { id } })',
      '15: runOperation(postThing, {})',
    ]);
  });

  it('reads through useOperation, and a write from an event handler, pass', () => {
    const clean = `
      export function Screen({ id }) {
        const thing = useOperation(getThing, { params: { id } });
        const save = useMutation({ mutationFn: () => call(postThing, {}) });
        useEffect(() => {
          document.title = thing.data?.name ?? '';
        }, [thing.data]);
        return <button onClick={() => call(postOther, {})}>Save</button>;
      }`;
    expect(serverCallsInEffects(clean, 'clean.tsx')).toEqual([]);
    // The islands' endpoint calls pass only where allowed.
    const island = 'useEffect(() => { callEndpoint(getThingEndpoint).then(show); }, []);';
    expect(serverCallsInEffects(island, 'island.ts')).toEqual(['1: callEndpoint(getThingEndpoint)']);
    expect(serverCallsInEffects(island, 'island.ts', { allow: ['callEndpoint'] })).toEqual([]);
  });
});

describe('the web rules, on src/web', () => {
  let graph: Graph;
  beforeAll(async () => {
    graph = (await madge(SRC, { fileExtensions: ['ts', 'tsx'] })).obj();
  }, 120_000);
  /** A test, or a helper of tests (it imports from tests/): not part of the running app. */
  const isTest = (file: string) => /\.test\.tsx?$/.test(file) || (graph[file] ?? []).some((dep) => dep.startsWith('../tests/'));

  it('has no folder cycle (features, lib, components, routes, islands)', () => {
    expect(Object.keys(graph).filter((f) => f.startsWith('web/features/')).length).toBeGreaterThan(100);
    expect(folderCycles(webFolderEdges(graph, isTest))).toEqual([]);
  });

  it("features import each other only through a feature's public index.ts", () => {
    expect(deepFeatureImports(graph, isTest)).toEqual([]);
  });

  it('no server call inside an effect: every read goes through useOperation / TanStack Query', () => {
    // callEndpoint is the call of code that runs without the router app's query client: the public
    // pages' islands (docs/decisions/115-dom-islands-before-interaction.md) and the session provider
    // around them, through the zod-free endpoints (docs/decisions/301-zod-free-endpoints.md).
    const found = Object.keys(graph)
      .filter((f) => f.startsWith('web/') && !isTest(f))
      .flatMap((f) => serverCallsInEffects(readFileSync(`${SRC}${f}`, 'utf8'), f, { allow: ['callEndpoint'] }).map((hit) => `${f}:${hit}`));
    expect(found).toEqual([]);
  });
});
