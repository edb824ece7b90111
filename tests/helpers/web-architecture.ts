import ts from 'typescript';

// The rules that hold src/web to the server's folder rules (docs/decisions/338-web-reads-and-folder-rules.md).
// Each rule is a function of the import graph or of one file's source, so that a unit test can feed
// it a planted cycle or a planted read (src/web/architecture.test.ts).

/** The import graph as madge gives it: file (relative to src/) → the files it imports. */
export type Graph = Record<string, string[]>;

/**
 * The folder a web file belongs to: `features/<name>` for a feature, else its top folder under
 * src/web (`lib`, `components`, `routes`, `islands`, …); null for files outside src/web and
 * for src/web's own root files (app.tsx, routes.tsx: the app that puts the folders together).
 */
export function webFolderOf(file: string): string | null {
  const feature = /^web\/features\/([^/]+)\//.exec(file);
  if (feature) return `features/${feature[1]}`;
  const top = /^web\/([^/]+)\//.exec(file);
  return top ? top[1]! : null;
}

/** The folder → folders edges of the web's files (tests and their helpers left out by `skip`). */
export function webFolderEdges(graph: Graph, skip: (file: string) => boolean = () => false): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const [file, deps] of Object.entries(graph)) {
    const from = webFolderOf(file);
    if (!from || skip(file)) continue;
    for (const dep of deps) {
      const to = webFolderOf(dep);
      if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  return edges;
}

/** Every loop of folders, each as `a → b → a` (depth-first search for a back edge). */
export function folderCycles(edges: Map<string, Set<string>>): string[] {
  const loops: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (f: string, path: string[]) => {
    state.set(f, 'open');
    for (const to of [...(edges.get(f) ?? [])].sort()) {
      if (state.get(to) === 'open') loops.push([...path.slice(path.indexOf(to)), f, to].join(' → '));
      else if (!state.has(to)) visit(to, [...path, f]);
    }
    state.set(f, 'done');
  };
  for (const f of [...edges.keys()].sort()) if (!state.has(f)) visit(f, []);
  return loops;
}

/**
 * Imports from one feature into another that skip the other's public `index.ts` (island DOM code aside):
 * `features/a/x.tsx → features/b/y.tsx` is one; `features/a/x.tsx → features/b/index.ts` is the way.
 */
export function deepFeatureImports(graph: Graph, skip: (file: string) => boolean = () => false): string[] {
  const found: string[] = [];
  for (const [file, deps] of Object.entries(graph)) {
    const from = /^web\/features\/([^/]+)\//.exec(file)?.[1];
    // An island's DOM code (`*-dom.ts`) names the file it needs: a public index.ts would bring the
    // feature's React screens into the public page's 25 KB (docs/decisions/115-dom-islands-before-interaction.md).
    if (!from || skip(file) || file.endsWith('-dom.ts')) continue;
    for (const dep of deps) {
      const to = /^web\/features\/([^/]+)\/(.+)$/.exec(dep);
      if (to && to[1] !== from && to[2] !== 'index.ts') found.push(`${file} → ${dep}`);
    }
  }
  return found.sort();
}

/** The functions that reach the server: a read among them belongs in `useOperation`/`useQuery`. */
const SERVER_CALLS = new Set(['call', 'callEndpoint', 'runOperation']);
const EFFECT_HOOKS = new Set(['useEffect', 'useLayoutEffect']);

/**
 * Each server call made inside an effect of this source (`call(…)` in `useEffect(() => …)`, also
 * through a function of the same file that the effect calls), as `line: text`. A read made there
 * has no cache, no abort and no invalidation: it belongs in `useOperation` (src/web/lib/use-operation.ts).
 */
export function serverCallsInEffects(source: string, fileName = 'file.tsx', { allow = [] as readonly string[] } = {}): string[] {
  const sf = ts.createSourceFile(
    fileName,
    source,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const calleeName = (node: ts.CallExpression) => {
    const e = node.expression;
    if (ts.isIdentifier(e)) return e.text;
    if (ts.isPropertyAccessExpression(e)) return e.name.text;
    return null;
  };
  // The file's named functions (declarations and `const f = (…) => …`/useCallback(…)), by name.
  const functions = new Map<string, ts.Node>();
  const collect = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) && node.name) functions.set(node.name.text, node);
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) functions.set(node.name.text, node.initializer);
    ts.forEachChild(node, collect);
  };
  collect(sf);
  const found = new Set<string>();
  const where = (node: ts.Node) =>
    `${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().split('\n')[0]!.slice(0, 100)}`;
  const scan = (node: ts.Node, effect: ts.Node, seen: Set<string>) => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      if (name && SERVER_CALLS.has(name) && !allow.includes(name) && ts.isIdentifier(node.expression)) found.add(where(node));
      else if (name && ts.isIdentifier(node.expression) && functions.has(name) && !seen.has(name)) {
        seen.add(name);
        scan(functions.get(name)!, effect, seen);
      }
    }
    ts.forEachChild(node, (child) => scan(child, effect, seen));
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && EFFECT_HOOKS.has(calleeName(node) ?? '') && node.arguments[0])
      scan(node.arguments[0], node, new Set());
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return [...found];
}
