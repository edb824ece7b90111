import type { AddContactBody } from '../../../contract/contact.ts';
import { postContactAddContactEndpoint } from '../../../contract/endpoints.ts';
import { callEndpoint } from '../../lib/api.ts';

/** Spec §7 contact/addContact; the ok flag is read and ignored (spec §8: failure counts as done). */
export async function sendContact(body: AddContactBody): Promise<void> {
  await callEndpoint(postContactAddContactEndpoint, { body });
}
