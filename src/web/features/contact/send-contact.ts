import type { AddContactBody, AddContactResponse } from '../../../contract/contact.ts';
import { api } from '../../lib/api.ts';

/** Spec §7 contact/addContact; the ok flag is read and ignored (spec §8: failure counts as done). */
export async function sendContact(body: AddContactBody): Promise<void> {
  await api<AddContactResponse>('POST', 'contact/addContact', body);
}
