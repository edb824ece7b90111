import type { Config } from '../../config.ts';

/**
 * Who the passkeys belong to: the host of PUBLIC_URL is the relying party id and its origin is the
 * only page a ceremony may come from. Browsers accept http only for localhost.
 */
export function relyingParty(config: Pick<Config, 'publicUrl' | 'BRAND_NAME'>) {
  const url = new URL(config.publicUrl);
  return { id: url.hostname, origin: url.origin, name: config.BRAND_NAME };
}
