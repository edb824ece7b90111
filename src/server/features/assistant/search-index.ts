import type { Passage } from './knowledge.ts';

// A tiny BM25 index: the site has a few dozen passages, so an in-memory index rebuilt in
// microseconds beats any embedding service (docs/decisions/042-assistant-retrieval.md).
const STOP = new Set(
  'a an and are as at be by can could do does for from have how i if in is it me my of on or our ' +
    'please the to we what when where which who why will with you your'.split(' '),
);

// A few words visitors use for what the pages call otherwise.
const SYNONYMS: Record<string, string> = {
  costs: 'cost',
  much: 'cost',
  charge: 'cost',
  charges: 'cost',
  prices: 'price',
  pricing: 'price',
  customize: 'customise',
  customization: 'customise',
  customisation: 'customise',
  customizable: 'customise',
  website: 'site',
  websites: 'site',
  sites: 'site',
  webpage: 'site',
  refunds: 'refund',
  refundable: 'refund',
  delivered: 'delivery',
  deliver: 'delivery',
  services: 'service',
};

export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9%$₹€£\s]/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 1 && !STOP.has(w))
    .map((w) => SYNONYMS[w] ?? w)
    .map((w) => (w.length > 4 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

export interface SearchHit {
  passage: Passage;
  score: number;
}

export interface SearchIndex {
  search(query: string, limit?: number): SearchHit[];
  readonly size: number;
}

export function createSearchIndex(passages: Passage[]): SearchIndex {
  const k1 = 1.2;
  const b = 0.75;
  const docs = passages.map((p) => {
    // The title and keywords count twice: they say what the passage is about.
    const tokens = [...tokenize(`${p.title} ${p.keywords ?? ''}`), ...tokenize(`${p.title} ${p.keywords ?? ''} ${p.text}`)];
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { passage: p, tf, length: tokens.length };
  });
  const avgLength = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, docs.length);
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => {
    const n = df.get(t) ?? 0;
    return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
  };

  return {
    size: docs.length,
    search(query, limit = 3) {
      const terms = [...new Set(tokenize(query))];
      if (terms.length === 0) return [];
      return docs
        .map((d) => {
          let score = 0;
          for (const t of terms) {
            const f = d.tf.get(t);
            if (!f) continue;
            score += (idf(t) * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / avgLength));
          }
          return { passage: d.passage, score };
        })
        .filter((h) => h.score > 0)
        .sort((x, y) => y.score - x.score)
        .slice(0, limit);
    },
  };
}
