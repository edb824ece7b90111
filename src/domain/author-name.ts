// The name shown with a message on an order's thread or a support request
// (docs/decisions/271-message-author-names.md): an agency message says which staff member wrote it
// and for whom ("Ravi · Webcraft Studio"), the brand alone without a name; a customer message the
// customer's name or null. Built from the name column only: never an e-mail address.

export function authorNameOf(sender: 'customer' | 'agency', name: string | null | undefined, brand: string): string | null {
  const who = name?.trim() || null;
  if (sender === 'customer') return who;
  return who ? `${who} · ${brand}` : brand;
}
