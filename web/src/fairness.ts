// tavola-fair-v1 (docs/fairness.md), re-derived in the browser with WebCrypto: the
// commitment, the client entropy, one HMAC key per chance request, its byte stream,
// uniform integers by rejection and the Fisher–Yates shuffle.
const PREFIX = "tavola-fair-v1";
const enc = new TextEncoder();
const TWO64 = 1n << 64n;

const subtle = (): SubtleCrypto => globalThis.crypto.subtle;

export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function fromHex(text: string): Uint8Array {
  const clean = text.trim();
  if (clean.length % 2 !== 0 || /[^0-9a-fA-F]/.test(clean)) throw new Error(`not hex: ${text}`);
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function uint32(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

function uint64(n: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n));
  return out;
}

export async function sha256(data: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await subtle().digest("SHA-256", data as BufferSource));
}

async function hmacKey(key: Uint8Array): Promise<CryptoKey> {
  return subtle().importKey("raw", key as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

async function hmac(key: CryptoKey, message: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await subtle().sign("HMAC", key, message as BufferSource));
}

/** hex(SHA-256(server seed)): what the table shows before any card is dealt. */
export async function commitment(serverSeed: Uint8Array): Promise<string> {
  return hex(await sha256(serverSeed));
}

/** SHA-256("tavola-fair-v1" || for each seat: uint32(len) || seed). */
export async function entropy(clientSeeds: Uint8Array[]): Promise<Uint8Array> {
  const parts: Uint8Array[] = [enc.encode(PREFIX)];
  for (const seed of clientSeeds) parts.push(uint32(seed.length), seed);
  return sha256(concat(parts));
}

/** The key of one chance request: HMAC(server seed, "tavola-fair-v1|purpose|hex(entropy)"). */
export async function requestKey(serverSeed: Uint8Array, purpose: string, mixed: Uint8Array): Promise<Uint8Array> {
  const key = await hmacKey(serverSeed);
  return hmac(key, enc.encode(`${PREFIX}|${purpose}|${hex(mixed)}`));
}

/** The request's byte stream, read 8 bytes at a time as unsigned 64-bit integers. */
export class ChanceStream {
  private block = 0;
  private buffer: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  private at = 0;
  private constructor(private readonly key: CryptoKey) {}

  static async of(requestKeyBytes: Uint8Array): Promise<ChanceStream> {
    return new ChanceStream(await hmacKey(requestKeyBytes));
  }

  private async next64(): Promise<bigint> {
    if (this.at + 8 > this.buffer.length) {
      const fresh = await hmac(this.key, uint64(this.block++));
      this.buffer = concat([this.buffer.slice(this.at), fresh]);
      this.at = 0;
    }
    const value = new DataView(this.buffer.buffer, this.buffer.byteOffset + this.at, 8).getBigUint64(0);
    this.at += 8;
    return value;
  }

  /** uniform(n): rejection sampling, no modulo bias. */
  async uniform(n: number): Promise<number> {
    const size = BigInt(n);
    const limit = TWO64 - (TWO64 % size);
    for (;;) {
      const x = await this.next64();
      if (x < limit) return Number(x % size);
    }
  }

  async draw(n: number): Promise<number> {
    return this.uniform(n);
  }

  async shuffle(size: number): Promise<number[]> {
    const p = Array.from({ length: size }, (_, i) => i);
    for (let i = size - 1; i >= 1; i--) {
      const j = await this.uniform(i + 1);
      const held = p[i] as number;
      p[i] = p[j] as number;
      p[j] = held;
    }
    return p;
  }
}

export interface Derivation {
  serverSeed: Uint8Array;
  clientSeeds: Uint8Array[];
}

/** A chance request's stream for a match (its seeds) and a purpose. */
export async function streamFor(d: Derivation, purpose: string): Promise<ChanceStream> {
  return ChanceStream.of(await requestKey(d.serverSeed, purpose, await entropy(d.clientSeeds)));
}
