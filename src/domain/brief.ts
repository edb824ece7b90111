import { STAGES } from './tracker.ts';

// The brief (intake form) a customer gives once the advance is paid (decision 145).
// The questions are data: adding one is one line here; the server validates answers from this list
// and the brief screens render it. Ids are stored with the answers, so an id is never renamed.

/** The brief is read-only once this stage ("UI Started") is completed: design work builds on it. */
export const BRIEF_LOCK_STAGE = STAGES.indexOf('UI Started') + 1;

/**
 * - `text`: one line; `multiline`: a paragraph (line breaks kept);
 * - `list`: several short lines (e.g. pages); `urls`: several http(s) addresses;
 * - `choice`: one of `options` (its `value` is stored).
 */
export type BriefQuestionKind = 'text' | 'multiline' | 'list' | 'urls' | 'choice';

export interface BriefOption {
  value: string;
  label: string;
}

export interface BriefQuestion {
  id: string;
  label: string;
  kind: BriefQuestionKind;
  /** Needed before the brief can be submitted (a draft may leave it empty). */
  required: boolean;
  /** For `choice` only. */
  options?: readonly BriefOption[];
  /** A follow-up: shown (and asked) only while question `id` is answered `value`. */
  followUpOf?: { id: string; value: string };
}

export const BRIEF_QUESTIONS: readonly BriefQuestion[] = [
  { id: 'businessName', label: 'Business name', kind: 'text', required: true },
  { id: 'businessDescription', label: 'What does your business do?', kind: 'multiline', required: true },
  { id: 'audience', label: 'Who are your customers?', kind: 'multiline', required: false },
  { id: 'pages', label: 'Pages you want (one per line, e.g. Home, About, Services, Contact)', kind: 'list', required: true },
  { id: 'likedWebsites', label: 'Websites you like (addresses)', kind: 'urls', required: false },
  { id: 'coloursAndFonts', label: 'Colours and fonts (your brand colours, fonts you use or like)', kind: 'multiline', required: false },
  {
    id: 'domain',
    label: 'Domain name',
    kind: 'choice',
    required: true,
    options: [
      { value: 'has', label: 'I already have a domain' },
      { value: 'needs', label: 'I need a domain' },
    ],
  },
  // Optional so a customer who does not remember it can still send the brief (docs/decisions/219-review-and-tracker-polish.md).
  { id: 'domainName', label: 'Your domain (e.g. example.com)', kind: 'text', required: false, followUpOf: { id: 'domain', value: 'has' } },
  {
    id: 'contentReadiness',
    label: 'Is your content (text, photos, logo) ready?',
    kind: 'choice',
    required: true,
    options: [
      { value: 'ready', label: 'Yes, it is ready' },
      { value: 'partly', label: 'Partly ready' },
      { value: 'not_yet', label: 'Not yet, we need help with it' },
    ],
  },
  { id: 'anythingElse', label: 'Anything else we should know?', kind: 'multiline', required: false },
];

/** Size bounds of one answer (characters, items). */
export const BRIEF_LIMITS = {
  text: 200,
  multiline: 5000,
  /** Items of a `list` or `urls` answer, and the length of one item. */
  items: 30,
  item: 200,
  url: 2000,
} as const;

/** Keys one request may send (unknown ids are refused anyway; this bounds the work before that). */
export const BRIEF_ANSWER_KEYS_MAX = 50;

export type BriefAnswer = string | string[];
export type BriefAnswers = Record<string, BriefAnswer>;

export const briefQuestion = (id: string) => BRIEF_QUESTIONS.find((q) => q.id === id);

/** `missing`: the required questions left empty, in form order (the form marks and focuses the first). */
export type BriefCheck = { ok: true; answers: BriefAnswers } | { ok: false; message: string; missing?: string[] };

/** Whether a question is asked with these answers: a follow-up only while its parent has the value. */
export const isAsked = (q: BriefQuestion, answers: Readonly<Record<string, BriefAnswer>>) =>
  !q.followUpOf || answers[q.followUpOf.id] === q.followUpOf.value;

/** "a; b; c." — without a second stop after a label that ends in one ("…ready?", not "…ready?."). */
const listSentence = (labels: string[]) => {
  const text = labels.join('; ');
  return /[.?!]$/.test(text) ? text : `${text}.`;
};

const LINE_BREAK_OR_TAB = /[\t\n\r]/;

/**
 * A web address as customers type it: http(s) with a host. A bare "example.com" gets https://
 * (what a person means by it); anything else (javascript:, mailto:, spaces) is refused.
 */
export function normaliseUrl(raw: string): string | null {
  const s = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : /^[^\s/]+\.[^\s/]+/.test(raw) ? `https://${raw}` : raw;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return null;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname.includes('.') || /\s/.test(s)) return null;
  return u.toString();
}

function checkOne(q: BriefQuestion, value: BriefAnswer): { ok: true; value: BriefAnswer | null } | { ok: false; message: string } {
  const name = `"${q.label}"`;
  if (q.kind === 'list' || q.kind === 'urls') {
    if (!Array.isArray(value)) return { ok: false, message: `${name} takes a list.` };
    const items = value.map((v) => v.trim()).filter(Boolean);
    if (items.length > BRIEF_LIMITS.items) return { ok: false, message: `${name} can have at most ${BRIEF_LIMITS.items} entries.` };
    if (q.kind === 'list') {
      if (items.some((v) => v.length > BRIEF_LIMITS.item))
        return { ok: false, message: `Each entry of ${name} can be at most ${BRIEF_LIMITS.item} characters.` };
      return { ok: true, value: items.length ? items : null };
    }
    const urls: string[] = [];
    for (const item of items) {
      const url = item.length <= BRIEF_LIMITS.url ? normaliseUrl(item) : null;
      if (!url) return { ok: false, message: `${name}: "${item.slice(0, 60)}" is not a web address (http or https).` };
      urls.push(url);
    }
    return { ok: true, value: urls.length ? urls : null };
  }
  if (typeof value !== 'string') return { ok: false, message: `${name} takes text, not a list.` };
  const text = value.trim();
  if (q.kind === 'choice') {
    if (!text) return { ok: true, value: null };
    return q.options?.some((o) => o.value === text)
      ? { ok: true, value: text }
      : { ok: false, message: `${name} must be one of: ${q.options?.map((o) => o.value).join(', ')}.` };
  }
  const max = q.kind === 'text' ? BRIEF_LIMITS.text : BRIEF_LIMITS.multiline;
  if (text.length > max) return { ok: false, message: `${name} can be at most ${max} characters.` };
  if (q.kind === 'text' && LINE_BREAK_OR_TAB.test(text)) return { ok: false, message: `${name} must be a single line.` };
  return { ok: true, value: text || null };
}

/**
 * Checks and tidies a brief: unknown ids refused, every answer of its question's kind and size,
 * empty answers dropped (a draft is saved as typed). Submitting needs every required question.
 */
export function checkBriefAnswers(raw: Readonly<Record<string, BriefAnswer>>, submit: boolean): BriefCheck {
  const answers: BriefAnswers = {};
  for (const [id, value] of Object.entries(raw)) {
    const q = briefQuestion(id);
    if (!q) return { ok: false, message: `Unknown brief question "${id.slice(0, 64)}".` };
    const r = checkOne(q, value);
    if (!r.ok) return r;
    if (r.value !== null) answers[id] = r.value;
  }
  if (submit) {
    const missing = BRIEF_QUESTIONS.filter((q) => q.required && isAsked(q, answers) && answers[q.id] === undefined);
    if (missing.length)
      return {
        ok: false,
        message: `Before sending the brief, please answer: ${listSentence(missing.map((q) => q.label))}`,
        missing: missing.map((q) => q.id),
      };
  }
  return { ok: true, answers };
}
