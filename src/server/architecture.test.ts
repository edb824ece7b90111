import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { mailsOutsideTransaction } from '../../tests/helpers/mail-rule.ts';

// The import rules of decision 100, checked on the real import graph (madge, the tool of
// `npx madge --circular --extensions ts,tsx src`, dynamic import() included).

interface MadgeResult {
  obj(): Record<string, string[]>;
  circular(): string[][];
  warnings(): { skipped: string[] };
}
const madge = createRequire(import.meta.url)('madge') as (path: string, config: { fileExtensions: string[] }) => Promise<MadgeResult>;

const SRC = fileURLToPath(new URL('..', import.meta.url));

/** Features that react to the tracker's stages: the tracker must not know them. */
const TRACKER_LISTENERS = ['reminders', 'invoices', 'mail', 'order-mail', 'payments', 'reviews', 'support', 'notices'];
/** Features that react to a settled payment: settling must not call them. */
const PAYMENT_LISTENERS = ['invoices', 'reminders', 'order-mail', 'tracker', 'reviews', 'support', 'notices'];

const featureOf = (file: string) => /^server\/features\/([^/]+)\//.exec(file)?.[1];

/**
 * Lines that name the stored owner role 'admin' next to a role: compared, matched in SQL or written.
 * Only src/domain/roles.ts may (OWNER_ROLE, isOwner, isBackOffice), so the word stays in one place.
 */
const STORED_OWNER_ROLE = new RegExp(
  [
    String.raw`\brole\)?\s*(?:===|!==|==|!=)\s*['"]admin['"]`,
    String.raw`['"]admin['"]\s*(?:===|!==|==|!=)\s*[\w.?]*\brole\b`,
    String.raw`\brole\s*,\s*['"]admin['"]\s*\)`,
    String.raw`\brole\s*(?:=|<>|!=)\s*'admin'`,
    String.raw`\brole\s+in\s*\([^)]*'admin'`,
    String.raw`\brole:\s*['"]admin['"]`,
  ].join('|'),
);
const storedOwnerRoleUses = (text: string) =>
  text
    .replace(/^\s*(?:\/\/|\*|\/\*\*).*$/gm, '')
    .split('\n')
    .filter((line) => STORED_OWNER_ROLE.test(line))
    .map((line) => line.trim());

let graph: Record<string, string[]>;
let result: MadgeResult;

beforeAll(async () => {
  result = await madge(SRC, { fileExtensions: ['ts', 'tsx'] });
  graph = result.obj();
}, 120_000);

/** A test, or a helper of tests (it imports from tests/): not part of the running app. */
const isTest = (file: string) => /\.test\.tsx?$/.test(file) || (graph[file] ?? []).some((dep) => dep.startsWith('../tests/'));

/**
 * `AppDeps` (deps.ts) is what buildApp hands every feature — mailer, metrics, events — so its
 * type imports lead everywhere; passing through it is not depending on a feature.
 */
const CONTAINER = 'server/deps.ts';

/** Every file reachable from the non-test files of `folder` (the files themselves included). */
function reachableFrom(folder: string): Set<string> {
  const seen = new Set<string>();
  const stack = Object.keys(graph).filter((f) => f.startsWith(folder) && !isTest(f));
  while (stack.length) {
    const f = stack.pop()!;
    if (seen.has(f) || f === CONTAINER) continue;
    seen.add(f);
    stack.push(...(graph[f] ?? []));
  }
  return seen;
}

describe('architecture', () => {
  it('has no import circle anywhere in src/ (server, web, domain, contract)', () => {
    expect(Object.keys(graph).length).toBeGreaterThan(300);
    // A local file madge could not read would hide its imports; packages it does not follow are fine.
    expect(result.warnings().skipped.filter((s) => s.startsWith('.') || s.startsWith('/'))).toEqual([]);
    expect(result.circular()).toEqual([]);
  });

  it('the tracker imports none of the features that react to its stages, not even through another file', () => {
    const direct = Object.entries(graph)
      .filter(([f]) => f.startsWith('server/features/tracker/'))
      .flatMap(([f, deps]) => deps.filter((d) => TRACKER_LISTENERS.includes(featureOf(d) ?? '')).map((d) => `${f} → ${d}`));
    expect(direct).toEqual([]);
    const reached = [...reachableFrom('server/features/tracker/')].filter((f) => TRACKER_LISTENERS.includes(featureOf(f) ?? ''));
    expect(reached).toEqual([]);
  });

  it('settling a payment reaches none of the features that react to it', () => {
    const reached = [...reachableFrom('server/features/payments/settle-payment.ts')].filter((f) =>
      PAYMENT_LISTENERS.includes(featureOf(f) ?? ''),
    );
    expect(reached).toEqual([]);
  });

  it('lib/ depends on no feature, so a helper moved there cannot hide a back-reference', () => {
    const reached = [...reachableFrom('server/lib/')].filter((f) => featureOf(f));
    expect(reached).toEqual([]);
  });

  it('no two feature folders import each other, directly or round a loop', () => {
    const edges = new Map<string, Set<string>>();
    for (const [file, deps] of Object.entries(graph)) {
      const from = featureOf(file);
      if (!from || isTest(file)) continue;
      for (const dep of deps) {
        const to = featureOf(dep);
        if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    // Depth-first search for a back edge; reports the loop of folders it closes.
    const loops: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (f: string, path: string[]) => {
      state.set(f, 'open');
      for (const to of edges.get(f) ?? []) {
        if (state.get(to) === 'open') loops.push([...path.slice(path.indexOf(to)), f, to].join(' → '));
        else if (!state.has(to)) visit(to, [...path, f]);
      }
      state.set(f, 'done');
    };
    for (const f of edges.keys()) if (!state.has(f)) visit(f, []);
    expect(loops).toEqual([]);
  });

  // One way to connect features (docs/architecture.md, "Events and jobs"): a question another
  // feature answers is added to `deps.queries` at build time, reactions subscribe to events, and
  // nothing is handed from one reaction to another.
  const appFiles = () => Object.keys(graph).filter((f) => f.startsWith('server/') && !isTest(f) && !f.endsWith('test-support.ts'));
  const source = (f: string) => readFileSync(`${SRC}${f}`, 'utf8');

  it('has no module-level registry that other features fill (answers go on deps.queries at build time)', () => {
    const found: string[] = [];
    for (const f of appFiles()) {
      const text = source(f);
      // An empty collection declared at the top of a module…
      for (const m of text.matchAll(/^(?:export )?(?:const|let) (\w+)(?:: [^=\n]+)? = (?:\[\]|new (?:Map|Set)(?:<[^>\n]*>)?\(\));/gm)) {
        const name = m[1]!;
        // …that an exported function adds to is a registry filled from outside.
        const filled = new RegExp(`export (?:async )?function \\w+[^]*?\\b${name}\\.(?:push|add|set|unshift)\\(`).test(text);
        if (filled) found.push(`${f}:${name}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('queues every mail in the transaction of its change (docs/decisions/340-mails-in-their-transaction.md)', () => {
    expect(appFiles().flatMap((f) => mailsOutsideTransaction(f, source(f)))).toEqual([]);
  });

  it('the mail rule fails on planted code and passes the forms the features use', () => {
    const planted = [
      'await deps.mailer.enqueue(deps.db, to, "chat-new", mail);',
      'await mailer.enqueue(database.db, to, "x", mail);',
      'await deps.mailer.enqueue(\n  deps.db,\n  to,\n  "x",\n  mail,\n);',
      'await transport.send({ to, subject });',
      'await deps.mailer.send(to, mail);',
    ];
    for (const text of planted) expect(mailsOutsideTransaction('server/features/x/planted.ts', text), text).toHaveLength(1);
    const allowed = [
      'await deps.mailer.enqueue(tx, to, "x", mail);',
      'await deps.mailer.enqueue(\n    tx,\n    to,\n    renderEmail(brand, { a: [1, 2] }),\n  );',
      'await deps.events.transaction((tx) => deps.mailer.enqueue(tx, to, "x", mail));',
      '// deps.mailer.enqueue(deps.db, to, "x", mail) in a comment',
      'await deps.jobs.enqueue(deps.db, "kind", {});',
    ];
    for (const text of allowed) expect(mailsOutsideTransaction('server/features/x/allowed.ts', text), text).toEqual([]);
    // The outbox's worker itself sends (features/mail/mailer.ts).
    expect(mailsOutsideTransaction('server/features/mail/mailer.ts', 'await transport.send({ to });')).toEqual([]);
  });

  it('passes no state from one reaction to another (no WeakSet/WeakMap hand-off on events)', () => {
    const found = appFiles()
      .filter((f) => f.startsWith('server/features/') && /subscriptions\.ts$/.test(f))
      .filter((f) => /\bnew Weak(?:Set|Map)\b/.test(source(f)));
    expect(found).toEqual([]);
  });

  /** Each contract operation's first path segment after /api/v1/, by the operation's exported name. */
  const operationSegments = () =>
    new Map(
      Object.keys(graph)
        .filter((f) => f.startsWith('contract/') && !isTest(f))
        .flatMap((f) =>
          [...source(f).matchAll(/export const (\w+) = defineOperation\(\{[^]*?path: '\/api\/v1\/([a-z-]+)/g)].map(
            (m) => [m[1]!, m[2]!] as const,
          ),
        ),
    );
  /** The first path segments of the routes a feature registers (raw, or from an operation): the only /api/v1/ paths it may spell out. */
  const ownSegments = (feature: string) => {
    const ops = operationSegments();
    return new Set(
      appFiles()
        .filter((f) => featureOf(f) === feature)
        .flatMap((f) => [
          ...[...source(f).matchAll(/app\.(?:get|post|put|patch|delete)\(\s*['"`]\/([a-z-]+)/g)].map((m) => m[1]!),
          ...[...source(f).matchAll(/\broute\(\s*app,\s*(\w+)/g)].flatMap((m) => ops.get(m[1]!) ?? []),
        ]),
    );
  };

  it("no feature reads another feature's URL strings (notices hear events, not routes)", () => {
    const found: string[] = [];
    for (const f of appFiles()) {
      const feature = featureOf(f);
      if (!feature) continue;
      const text = source(f);
      // Matching requests by route is for plugins (auth's permission check) and metrics' labels.
      // The back office's own hook (admin/routes.ts) applies the permission table's money fields by route, like the guard.
      if (feature !== 'metrics' && f !== 'server/features/admin/routes.ts' && /routeOptions\.url/.test(text.replace(/\/\/.*$/gm, '')))
        found.push(`${f}: reads routeOptions.url`);
      // The back office's permission table names the back office's own routes.
      if (f === 'server/features/admin/permissions.ts') continue;
      for (const m of text.replace(/^\s*(?:\/\/|\*|\/\*\*).*$/gm, '').matchAll(/['"`][A-Z]* ?\/api\/v1\/([a-z-]+)/g)) {
        if (!ownSegments(feature).has(m[1]!)) found.push(`${f}: /api/v1/${m[1]}`);
      }
    }
    expect(found).toEqual([]);
  });

  it(
    'no browser feature calls the API with a path string: each calls call(operation, input), ' +
      "useOperation, the file operations of src/web/lib/call-file.ts or, in the public pages' code, " +
      'callEndpoint(endpoint, input) (docs/decisions/280-contract-operations.md, ' +
      'docs/decisions/295-file-operations.md, docs/decisions/301-zod-free-endpoints.md)',
    () => {
      // api.ts defines `request` and `callEndpoint`; call.ts builds on them; call-file.ts and
      // download-file.ts send and fetch the file operations' URLs.
      const CLIENT = ['web/lib/api.ts', 'web/lib/call.ts', 'web/lib/call-file.ts', 'web/lib/download-file.ts'];
      // Browser navigations, not API calls, to routes outside the contract
      // (docs/decisions/302-routes-outside-the-contract.md): no operation, so no operationUrl to take.
      const NAVIGATIONS: Record<string, RegExp> = {
        // The OpenID flow starts with a full-page navigation (302 to the provider, a cookie, back).
        'web/features/auth/auth-api.ts': /^\/api\/v1\/auth\/oidc\/\$\{provider\}\/start\?/,
        // Test mode's checkout pages: HTML and form posts answered with redirects.
        'web/lib/checkout.ts': /^\/api\/v1\/payment\/test-checkout\/\$\{/,
        'web/features/support/plan-checkout.ts': /^\/api\/v1\/payment\/test-checkout\/subscription\/\$\{/,
      };
      const used = new Set<string>();
      const offenders = Object.keys(graph)
        .filter((f) => (f.startsWith('web/features/') || f.startsWith('web/lib/')) && !CLIENT.includes(f) && !isTest(f))
        .flatMap((f) => {
          const text = source(f).replace(/^\s*(?:\/\/|\*|\/\*\*).*$/gm, '');
          const found: string[] = [];
          if (/import\s*\{[^}]*\bapi\b[^}]*\}\s*from\s*['"][./]*lib\/api\.ts['"]/.test(text)) found.push(`${f}: imports api`);
          // `api(…)` or `api<T>(…)`, however it came in.
          if (/(?<![\w.$])api\s*[<(]/.test(text)) found.push(`${f}: calls api(…)`);
          if (/import\s*\{[^}]*\b(?:useAdminData|adminAction)\b[^}]*\}\s*from\s*['"][./]*(?:admin\/)?use-admin-data\.ts['"]/.test(text))
            found.push(`${f}: a path hook`);
          // The API's base makes a path of its own; an operation carries its path.
          if (/\bAPI_BASE\b/.test(text)) found.push(`${f}: API_BASE`);
          for (const m of text.matchAll(/['"`](\/api\/v1[^'"`]*)/g)) {
            if (NAVIGATIONS[f]?.test(m[1]!)) used.add(f);
            else found.push(`${f}: ${m[1]}`);
          }
          return found;
        })
        .sort();
      expect(offenders).toEqual([]);
      // An exception no longer needed goes (its navigation became an operation's URL, or went).
      expect([...used].sort()).toEqual(Object.keys(NAVIGATIONS).sort());
    },
  );

  it("names the owner's stored role 'admin' only in src/domain/roles.ts: code asks isOwner/isBackOffice (docs/decisions/349-role-words.md)", () => {
    const found = Object.keys(graph)
      .filter((f) => !isTest(f) && f !== 'domain/roles.ts')
      .flatMap((f) => storedOwnerRoleUses(source(f)).map((line) => `${f}: ${line}`));
    expect(found).toEqual([]);
  });

  it('the stored-role rule fails on planted code and passes the forms the code uses', () => {
    const planted = [
      "if (user.role === 'admin') return;",
      "const owner = 'admin' !== auth.user.role;",
      "where(eq(users.role, 'admin'))",
      "select id from users where role = 'admin'",
      "await db.insert(users).values({ email, role: 'admin' });",
    ];
    expect(planted.filter((line) => storedOwnerRoleUses(line).length === 0)).toEqual([]);
    const fine = [
      'if (isOwner(user.role)) return;',
      'values({ email, role: OWNER_ROLE })',
      "const tags = ['admin'];",
      'sender === CHAT_SENDER.agency',
    ];
    expect(fine.flatMap((line) => storedOwnerRoleUses(line))).toEqual([]);
  });

  it('the endpoints the public pages call are zod-free: src/contract/endpoints.ts imports types only (docs/decisions/301-zod-free-endpoints.md)', () => {
    const text = source('contract/endpoints.ts');
    const imports = [...text.matchAll(/^import\s+(type\s+)?[^;]*?from\s*['"]([^'"]+)['"]/gm)];
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((m) => !m[1]).map((m) => m[2])).toEqual([]);
  });
});
