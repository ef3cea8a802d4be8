// The seal with the browser's WebCrypto (docs/network.md, "Sealed, end to end"): the same
// KDFs and AEAD as net/protocol.py. The join code's key is PBKDF2-HMAC-SHA256 of its 10
// characters (600,000 rounds); the proofs HMAC-SHA256 over both nonces; each direction's key
// HKDF-SHA256 of the code's key, salted with both nonces; every message after AUTH is
// AES-256-GCM under it, the sender's counter (0, 1, 2, ...) its nonce.

import { T, concat, message, WireError } from "./wire.js";

const subtle = globalThis.crypto && globalThis.crypto.subtle;
const encoder = new TextEncoder();
export const CODE_ROUNDS = 600000;
export const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** The code's 10 characters (dashes and spaces dropped, O read as 0, I and L as 1), or null. */
export function normalCode(text) {
  const spelled = { O: "0", I: "1", L: "1" };
  const chars = [...text.toUpperCase()].filter((c) => c !== "-" && c !== " ")
    .map((c) => spelled[c] || c).join("");
  if (chars.length !== 10 || [...chars].some((c) => !ALPHABET.includes(c))) return null;
  return chars;
}

export function available() {
  return Boolean(subtle);
}

export async function codeKey(code) {
  const base = await subtle.importKey("raw", encoder.encode(code), "PBKDF2", false,
                                      ["deriveBits"]);
  const bits = await subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: encoder.encode("zxmonopoly join code"),
      iterations: CODE_ROUNDS }, base, 256);
  return new Uint8Array(bits);
}

async function hmac(key, data) {
  const k = await subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false,
                                   ["sign"]);
  return new Uint8Array(await subtle.sign("HMAC", k, data));
}

export const peerProof = (key, hostNonce, peerNonce) =>
  hmac(key, concat(encoder.encode("peer"), hostNonce, peerNonce));
export const hostProof = (key, hostNonce, peerNonce) =>
  hmac(key, concat(encoder.encode("host"), peerNonce, hostNonce));

export function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** (host -> page, page -> host) AES-GCM keys of one connection. */
export async function sessionKeys(key, hostNonce, peerNonce) {
  const base = await subtle.importKey("raw", key, "HKDF", false, ["deriveKey"]);
  const derive = (label, use) => subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: concat(hostNonce, peerNonce),
      info: encoder.encode("zxmonopoly seal " + label) },
    base, { name: "AES-GCM", length: 256 }, false, [use]);
  return [await derive("host to peer", "decrypt"), await derive("peer to host", "encrypt")];
}

function nonce(counter) {
  const out = new Uint8Array(12);
  new DataView(out.buffer).setBigUint64(4, counter);
  return out;
}

/** Seals the page's messages in order (callers wait for each: the counter is the order). */
export class Sealer {
  constructor(key) {
    this.key = key;
    this.counter = 0n;
  }

  async seal(whole) {
    const counter = this.counter++;
    const box = new Uint8Array(await subtle.encrypt({ name: "AES-GCM", iv: nonce(counter) },
                                                    this.key, whole));
    const head = new Uint8Array(8);
    new DataView(head.buffer).setBigUint64(0, counter);
    return message(T.SEALED, concat(head, box));
  }
}

/** Opens the host's sealed messages in their order: null for one that came again. */
export class Opener {
  constructor(key) {
    this.key = key;
    this.next = 0n;
  }

  async open(sealed) {
    const counter = new DataView(sealed.counter.buffer, sealed.counter.byteOffset)
      .getBigUint64(0);
    if (counter < this.next) return null;
    if (counter > this.next) {
      throw new WireError(`sealed message ${counter} from the host came when ${this.next} was due`);
    }
    let inner;
    try {
      inner = await subtle.decrypt({ name: "AES-GCM", iv: nonce(counter) }, this.key, sealed.box);
    } catch {
      throw new WireError(`sealed message ${counter} from the host failed its check`);
    }
    this.next += 1n;
    return new Uint8Array(inner);
  }
}

export function randomBytes(n) {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}
