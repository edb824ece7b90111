// The architecture rule of docs/decisions/340-mails-in-their-transaction.md, as a function of one
// file's text so that a unit test can show it failing on planted code (src/server/architecture.test.ts).

/** Comments out of the way: a rule about calls reads code only. */
const code = (text: string) => text.replace(/\/\*[^]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** The first argument of the call whose "(" is at `open`, trimmed (up to the first comma at depth 0). */
function firstArgument(text: string, open: number): string {
  let depth = 0;
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return text.slice(open + 1, i).trim();
      depth--;
    } else if (c === ',' && depth === 0) return text.slice(open + 1, i).trim();
  }
  return text.slice(open + 1).trim();
}

/** A name that holds a transaction: `tx`, `trx`, or one ending in `Tx` (`outerTx`). */
const TRANSACTION = /^(?:tx|trx|\w+Tx)$/;

/**
 * The places in one server file where a mail leaves its change's transaction: a
 * `mailer.enqueue(x, …)` whose first argument is not a transaction (`deps.db`, `database.db`, …),
 * and any direct send (`transport.send(`, `.sendMail(`, `mailer.send(`) outside the outbox's
 * worker (features/mail/) and its transport (integrations/mail/). Answers "file:line: what" for each.
 */
export function mailsOutsideTransaction(file: string, text: string): string[] {
  const found: string[] = [];
  const body = code(text);
  const lineOf = (index: number) => body.slice(0, index).split('\n').length;
  for (const m of body.matchAll(/\bmailer\s*\.\s*enqueue\s*\(/g)) {
    const open = m.index + m[0].length - 1;
    const arg = firstArgument(body, open);
    if (!TRANSACTION.test(arg)) found.push(`${file}:${lineOf(m.index)}: mailer.enqueue(${arg}, …) outside a transaction`);
  }
  if (!file.startsWith('server/features/mail/') && !file.startsWith('server/integrations/mail/')) {
    for (const m of body.matchAll(/\b(?:transport\s*\.\s*send|mailer\s*\.\s*send|\.sendMail)\s*\(/g)) {
      found.push(`${file}:${lineOf(m.index)}: ${m[0].replace(/\s+/g, '')}…) sends past the outbox`);
    }
  }
  return found;
}
