// The messages a page speaks (docs/network.md, "Messages and their bounds" and "The
// lobby's messages"): network play's framed messages, the same bytes net/protocol.py
// writes and reads, and the lobby's, which carry them.

export const PROTOCOL = 3;
export const T = {
  HELLO: 1, CHALLENGE: 2, AUTH: 3, PING: 13, PONG: 14, BYE: 16, SEALED: 17,
  CLAIM: 18, SEAT: 19, ROSTER: 20, SCREEN: 21, TAKEN: 22, KEY: 23, ACK: 24,
};
export const NAMES = Object.fromEntries(Object.entries(T).map(([k, v]) => [v, k]));
export const HEADER = 5;
export const NO_SLOT = 0xff;
export const NO_FRAME = 0xffffffff;
export const NO_RTT = 0xffff;
export const TOKEN_SIZE = 16;
export const KEY_DOWN = 0, KEY_UP = 1, KEY_TYPED = 2;
export const SCREEN_EAR = 1, SCREEN_MIC = 2, SCREEN_PICTURE = 4;
export const HOST_KIND = 0, WINDOW_KIND = 1, BROWSER_KIND = 2;
export const ROSTER_PAUSED = 1;
export const PAGE_VERSION = "browser page";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

export class WireError extends Error {}

export function concat(...parts) {
  const size = parts.reduce((n, part) => n + part.length, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function text(value, limit) {
  let raw = encoder.encode(value);
  while (raw.length > limit) {  // cut at a character's edge, as protocol.clip does
    value = value.slice(0, -1);
    raw = encoder.encode(value);
  }
  return concat(Uint8Array.of(raw.length), raw);
}

function u32(value) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

/** A whole message: its header (type, length) and payload. */
export function message(type, payload = new Uint8Array(0)) {
  const out = new Uint8Array(HEADER + payload.length);
  const view = new DataView(out.buffer);
  view.setUint8(0, type);
  view.setUint32(1, payload.length);
  out.set(payload, HEADER);
  return out;
}

export function hello(nonce, name, watching) {
  const role = (watching ? 1 : 0) | 2;  // bit 1: a browser's page (no machine, ROM or tape)
  const head = new Uint8Array(4 + 2 + 1);
  head.set(encoder.encode("ZXNP"));
  new DataView(head.buffer).setUint16(4, PROTOCOL);
  head[6] = role;
  return message(T.HELLO, concat(head, nonce, new Uint8Array(64), text(PAGE_VERSION, 32),
                                 text(name, 32)));
}

export const auth = (mac) => message(T.AUTH, mac);
export const claim = (token) => message(T.CLAIM, token);
export const pong = (stamp) => message(T.PONG, stamp);
export const ack = (frame) => message(T.ACK, u32(frame));
export const bye = (reason) => message(T.BYE, encoder.encode(reason));

export function key(event, kind, source, keys, joystick = 0) {
  const out = new Uint8Array(15);
  new DataView(out.buffer).setUint32(0, event);
  out[4] = kind;
  out[5] = source;
  out.set(keys, 6);
  out[14] = joystick;
  return message(T.KEY, out);
}

/** Whole messages off a byte stream (a lobby DATA may hold several, or part of one). */
export class Stream {
  constructor() {
    this.buffer = new Uint8Array(0);
  }

  push(bytes) {
    this.buffer = concat(this.buffer, bytes);
    const out = [];
    while (this.buffer.length >= HEADER) {
      const view = new DataView(this.buffer.buffer, this.buffer.byteOffset);
      const type = view.getUint8(0);
      const length = view.getUint32(1);
      if (length > 2 * 1024 * 1024) throw new WireError(`a message of ${length} bytes`);
      if (this.buffer.length < HEADER + length) break;
      out.push([type, this.buffer.slice(HEADER, HEADER + length)]);
      this.buffer = this.buffer.slice(HEADER + length);
    }
    return out;
  }
}

class Reader {
  constructor(name, bytes) {
    this.name = name;
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.at = 0;
  }

  need(n) {
    if (this.at + n > this.bytes.length) throw new WireError(`${this.name} message cut short`);
  }

  u8() { this.need(1); return this.view.getUint8(this.at++); }
  u16() { this.need(2); const v = this.view.getUint16(this.at); this.at += 2; return v; }
  u32() { this.need(4); const v = this.view.getUint32(this.at); this.at += 4; return v; }
  take(n) { this.need(n); const v = this.bytes.slice(this.at, this.at + n); this.at += n; return v; }
  text() { return decoder.decode(this.take(this.u8())); }
  rest() { const v = this.bytes.slice(this.at); this.at = this.bytes.length; return v; }
}

/** A message the host sends a page, as an object with its fields. */
export function parse(type, payload) {
  const r = new Reader(NAMES[type] || `type ${type}`, payload);
  switch (type) {
    case T.CHALLENGE: {
      const magic = decoder.decode(r.take(4));
      if (magic !== "ZXNP") throw new WireError("not a zxmonopoly host");
      const protocol = r.u16();
      const nonce = r.take(16);
      r.take(64);  // its ROM's and tape's hashes: a page has neither
      return { type, protocol, nonce, version: r.text() };
    }
    case T.SEAT: {
      const mac = r.take(32), slot = r.u8(), join = r.u32(), delay = r.u8();
      const token = r.take(TOKEN_SIZE), name = r.text();
      const labels = {};
      for (let n = r.u8(); n > 0; n--) {
        const k = r.text();
        labels[k] = r.text();
      }
      return { type, mac, slot, join, delay, token, name, labels };
    }
    case T.ROSTER: {
      const flags = r.u8(), seated = [];
      for (let n = r.u8(); n > 0; n--) {
        seated.push({ slot: r.u8(), kind: r.u8(), delay: r.u8(), rtt: r.u16(), name: r.text() });
      }
      return { type, paused: Boolean(flags & ROSTER_PAUSED), seated };
    }
    case T.SCREEN:
      return { type, frame: r.u32(), base: r.u32(), flags: r.u8(), data: r.rest() };
    case T.TAKEN:
      return { type, event: r.u32(), frame: r.u32() };
    case T.PING:
      return { type, stamp: r.take(8) };
    case T.BYE:
      return { type, reason: decoder.decode(r.rest()) };
    case T.SEALED:
      return { type, counter: r.take(8), box: r.rest() };
    default:
      throw new WireError(`${NAMES[type] || "type " + type} message: not one a page is sent`);
  }
}

// -- the lobby's messages (net/lobbywire.py) --------------------------------------------------

export const LOBBY_VERSION = 1;
export const L = { ENTER: 2, SEND: 3, ENTERED: 0x82, DATA: 0x84, REFUSED: 0x86 };

export const enter = (room) => concat(Uint8Array.of(L.ENTER, LOBBY_VERSION), encoder.encode(room));
export const send = (data) => concat(Uint8Array.of(L.SEND), data);

export function lobbyMessage(bytes) {
  if (bytes.length === 0) throw new WireError("an empty lobby message");
  const kind = bytes[0];
  if (kind === L.DATA) return { kind, data: bytes.subarray(1) };
  if (kind === L.ENTERED) return { kind };
  if (kind === L.REFUSED) return { kind, reason: decoder.decode(bytes.subarray(1)) };
  throw new WireError(`lobby message kind ${kind}`);
}
