import { randomBytes } from 'node:crypto';

// Prompt-injection defences. The real protection is structural — the prompt holds only public
// site content and this visitor's own thread — and these checks keep the model from parroting its
// rules or pretending to know other conversations.
export const REFUSAL =
  "I can't share that. I can help with questions about our services, pricing, payments, delivery and " +
  "policies — or you can talk to a person in the 'Chat with our team' tab.";

const PROBES = [
  /\b(system|hidden|initial|original|secret)\s+(prompt|instructions?|message|rules)\b/i,
  /\b(your|the)\s+(instructions|prompt)\b/i,
  /\bignore\s+(all\s+|any\s+|the\s+|your\s+)?(previous|prior|above|earlier)\b/i,
  /\b(developer|dan|jailbreak)\s+mode\b|\bjailbreak\b/i,
  new RegExp(
    String.raw`\b(other|another|previous|different)\s+(visitor|user|customer|person|people|client)s?'?s?\b.*` +
      String.raw`\b(chat|conversation|message|question|said|say|ask|asked|talk|told|wrote)`,
    'i',
  ),
  /\b(chat|conversation|message)s?\s+(of|from|with)\s+(other|another)\b/i,
  /\brepeat\s+(everything|the\s+text|all)\s+above\b/i,
];

export const looksLikeProbe = (input: string) => PROBES.some((p) => p.test(input));

/** A marker placed in the system prompt: if it ever appears in an answer, the answer is withheld. */
export const createCanary = () => `ref-${randomBytes(6).toString('hex')}`;

export function leaksPrompt(answer: string, systemPrompt: string, canary: string): boolean {
  if (answer.includes(canary)) return true;
  const normalise = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');
  const a = normalise(answer);
  const rules = normalise(systemPrompt);
  // Any 50-character run of the rules copied verbatim counts as a leak.
  for (let i = 0; i + 50 <= rules.length; i += 25) {
    if (a.includes(rules.slice(i, i + 50))) return true;
  }
  return false;
}
