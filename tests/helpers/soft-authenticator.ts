import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';

// A software authenticator and the browser around it: it turns the server's options JSON into the
// registration or assertion JSON a browser sends (WebAuthn Level 3 JSON, what @simplewebauthn/browser
// produces). It speaks the real protocol — EC P-256 keys, CBOR, attestation "none", authenticator
// data with the RP id hash, flags, signature counter and attested credential data, ES256 signatures
// over authData || SHA-256(clientDataJSON) — so the server's verifier checks real cryptography.
// Each ceremony takes overrides, so a test can play the attacker (another origin, another RP id, a
// counter that went backwards) with everything else correct.

/** What navigator.credentials.create() resolves to, as JSON. */
export interface RegistrationJson {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  authenticatorAttachment: string;
  clientExtensionResults: Record<string, never>;
}

/** What navigator.credentials.get() resolves to, as JSON. */
export interface AssertionJson {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle: string };
  authenticatorAttachment: string;
  clientExtensionResults: Record<string, never>;
}

export interface CreationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName?: string };
  excludeCredentials?: { id: string }[];
}

export interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export interface CeremonyOverrides {
  /** The page the browser says the ceremony ran on (clientDataJSON.origin). */
  origin?: string;
  /** The RP id whose hash goes into the authenticator data. */
  rpId?: string;
  /** The signature counter to report instead of the next one. */
  counter?: number;
  /** For an assertion: this credential, whatever the options allow; for a registration: this one again. */
  credentialId?: string;
  /** The challenge to sign instead of the options' one. */
  challenge?: string;
}

export interface SoftCredential {
  id: string;
  rpId: string;
  userHandle: string;
  privateKey: KeyObject;
  cosePublicKey: Buffer;
  counter: number;
}

const b64url = (b: Buffer) => b.toString('base64url');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();

// — a minimal CBOR encoder (RFC 8949): what attestation objects and COSE keys need —
function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

type Cbor = number | string | Buffer | Cbor[] | Map<number | string, Cbor>;

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error('cbor: integers only');
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

function authenticatorData(
  rpId: string,
  flags: number,
  counter: number,
  attested?: { credentialId: Buffer; cosePublicKey: Buffer },
): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter >>> 0, 0);
  const parts: Buffer[] = [sha256(rpId), Buffer.from([flags | (attested ? FLAG_AT : 0)]), count];
  if (attested) {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(attested.credentialId.length, 0);
    // AAGUID all zeros: an authenticator that does not say what it is (attestation "none").
    parts.push(Buffer.alloc(16), length, attested.credentialId, attested.cosePublicKey);
  }
  return Buffer.concat(parts);
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}

function newKeyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const cosePublicKey = cbor(
    new Map<number, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
  return { privateKey, cosePublicKey };
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  /** `origin`: the page the browser shows, e.g. http://localhost:3000; the RP id comes from the options. */
  constructor(readonly origin: string) {}

  /** navigator.credentials.create(): a new P-256 key pair, the registration JSON. */
  register(options: CreationOptions, overrides: CeremonyOverrides = {}): RegistrationJson {
    const rpId = overrides.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    if (options.excludeCredentials?.some((c) => this.credentials.some((k) => k.id === c.id))) {
      throw new Error('InvalidStateError: this authenticator already holds a credential for the account');
    }
    // overrides.credentialId: the same credential registered again (a cloned authenticator).
    const reused = overrides.credentialId ? this.credentials.find((c) => c.id === overrides.credentialId) : undefined;
    const { privateKey, cosePublicKey } = reused ?? newKeyPair();
    const credentialId = reused ? Buffer.from(reused.id, 'base64url') : randomBytes(32);
    const counter = overrides.counter ?? 0;
    const authData = authenticatorData(rpId, FLAG_UP | FLAG_UV, counter, { credentialId, cosePublicKey });
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const id = b64url(credentialId);
    if (!reused) this.credentials.push({ id, rpId, userHandle: options.user.id, privateKey, cosePublicKey, counter });
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData('webauthn.create', overrides.challenge ?? options.challenge, overrides.origin ?? this.origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /**
   * navigator.credentials.get(): signs with the credential the options allow (or, with no
   * allowCredentials — the discoverable flow — the first one held for the RP id).
   */
  assert(options: RequestOptions, overrides: CeremonyOverrides = {}): AssertionJson {
    const allowed = options.allowCredentials?.map((c) => c.id);
    const credential = overrides.credentialId
      ? this.credentials.find((c) => c.id === overrides.credentialId)
      : this.credentials.find((c) => (!options.rpId || c.rpId === options.rpId) && (!allowed?.length || allowed.includes(c.id)));
    if (!credential) throw new Error('NotAllowedError: no credential for these options');
    credential.counter = overrides.counter ?? credential.counter + 1;
    const rpId = overrides.rpId ?? options.rpId ?? credential.rpId;
    const authData = authenticatorData(rpId, FLAG_UP | FLAG_UV, credential.counter);
    const clientDataJSON = clientData('webauthn.get', overrides.challenge ?? options.challenge, overrides.origin ?? this.origin);
    const signature = createSign('sha256')
      .update(Buffer.concat([authData, sha256(clientDataJSON)]))
      .sign(credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }
}
