// The browser's page (docs/network.md, "A browser's seat"): a friend opens the host's link,
// https://LOBBY/r/ROOM#CODE, gives a name and plays (or watches) the host's game. The code
// stays in the link's fragment, which the browser sends to no server: the page derives the
// keys from it here and the lobby relays only what it cannot read.

import * as wire from "./wire.js";
import * as seal from "./seal.js";
import { Picture, WIDTH, HEIGHT } from "./screen.js";
import { Beeper } from "./sound.js";
import { PcKeyboard, TouchKeyboard } from "./keys.js";

const $ = (id) => document.getElementById(id);
const REJOIN_EVERY = 2000;  // ms between tries to join again (net/peer.py's)
const REJOIN_FOR = 600000;
// Why the host lets a page go that coming back mends (net/peer.py's COMEBACK).
const COMEBACK = ["silent for", "no keys for frame", "not reading", "sealed message"];

// What the page does, for the tests and whoever looks (the developer tools' console).
const zx = globalThis.zx = {
  state: "start", message: "", frame: null, drawn: null, slot: null, name: "", seat: null,
  roster: null, bytes: 0, screens: 0, keysSent: 0, keys: [], joins: 0, ahead: 0,
};

// -- the link ---------------------------------------------------------------------------------

const room = location.pathname.split("/").pop();
const secret = decodeURIComponent(location.hash.slice(1));
const watchLink = secret.toLowerCase().startsWith("watch-");
const code = seal.normalCode(watchLink ? secret.slice("watch-".length) : secret);
let codeKey = null;  // the code's key, made once (PBKDF2 takes a moment)

function say(text, state = null) {
  zx.message = text;
  const box = $("message");
  box.textContent = text;
  box.hidden = !text;
  if (state) zx.state = state;
}

function status(text) {
  $("status").textContent = text;
}

// -- the picture ------------------------------------------------------------------------------

const canvas = $("screen");
const context = canvas.getContext("2d", { alpha: false });
const image = context.createImageData(WIDTH, HEIGHT);
const picture = new Picture();
const beeper = new Beeper();
Object.defineProperty(zx, "edges", { get: () => beeper.edges });
Object.defineProperty(zx, "muted", { get: () => beeper.muted });

function fit() {
  const keyboard = $("keyboard");
  const below = keyboard.hidden ? 0 : keyboard.offsetHeight + 12;
  const w = innerWidth - 16;
  const h = innerHeight - document.querySelector("header").offsetHeight - below - 60;
  const most = Math.min(w / WIDTH, h / HEIGHT);
  // A whole scale of 2 or more where it fits (each Spectrum pixel the same size), else as
  // large as fits (a phone): without blur either way (the canvas is drawn pixelated).
  const scale = most >= 2 ? Math.floor(most) : Math.max(most, Math.min(1, w / WIDTH));
  canvas.style.width = `${Math.round(WIDTH * scale)}px`;
  canvas.style.height = `${Math.round(HEIGHT * scale)}px`;
}
addEventListener("resize", fit);

function draw() {
  const session = current;
  if (picture.frame !== wire.NO_FRAME && picture.frame !== zx.drawn) {
    if (picture.changed) {
      picture.draw(image);
      context.putImageData(image, 0, 0);
    }
    zx.drawn = picture.frame;
    if (session !== null && session.screens > 0) session.send(wire.ack(picture.frame));
    const now = performance.now();
    for (const key of zx.keys) {
      if (key.frame !== undefined && key.seen === undefined && key.frame <= zx.drawn) {
        key.seen = now - key.down;
        showDelay();
      }
    }
  }
  requestAnimationFrame(draw);
}

// -- who is there -----------------------------------------------------------------------------

const KINDS = ["host", "window", "browser"];

function showPeople() {
  const roster = zx.roster;
  if (!roster) return;
  const list = $("players");
  list.replaceChildren();
  for (const p of roster.seated) {
    const li = document.createElement("li");
    const what = p.slot === wire.NO_SLOT ? "watching" : `player ${p.slot + 1}`;
    li.textContent = `${p.name} (${what}, ${KINDS[p.kind]})`;
    if (p.name === zx.name && (p.slot === zx.slot || (p.slot === wire.NO_SLOT && zx.slot === null)))
      li.className = "me";
    list.append(li);
  }
  $("people").hidden = false;
  showDelay();
}

function showDelay() {
  const me = zx.roster && zx.roster.seated.find((p) => p.name === zx.name &&
    p.kind === wire.BROWSER_KIND && (zx.slot === null ? p.slot === wire.NO_SLOT : p.slot === zx.slot));
  const parts = [];
  if (me && me.rtt !== wire.NO_RTT) parts.push(`round trip ${me.rtt} ms`);
  if (zx.slot !== null && me) {
    parts.push(`input delay ${me.delay} frame${me.delay === 1 ? "" : "s"} at the host` +
               (me.rtt !== wire.NO_RTT ? ` + ${me.rtt} ms` : ""));
  }
  const seen = zx.keys.filter((k) => k.seen !== undefined);
  if (seen.length) parts.push(`last key seen after ${Math.round(seen[seen.length - 1].seen)} ms`);
  if (zx.roster && zx.roster.paused) parts.push("PAUSED by the host");
  $("delay").textContent = parts.join(" · ");
}

// -- a connection to the host, through the lobby ----------------------------------------------

let current = null;

class Session {
  constructor(watching, name) {
    this.watching = watching;
    this.name = name;
    this.nonce = seal.randomBytes(16);
    this.stream = new wire.Stream();
    this.sealer = null;
    this.opener = null;
    this.inbox = Promise.resolve();
    this.outbox = Promise.resolve();
    this.screens = 0;
    this.final = null;  // why it will not join again
    this.refused = null;
    this.seated = false;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.ws = new WebSocket(`${scheme}//${location.host}/${room}`);
    this.ws.binaryType = "arraybuffer";
    this.ws.onopen = () => this.ws.send(wire.enter(room));
    this.ws.onmessage = (e) => {
      const bytes = new Uint8Array(e.data);
      zx.bytes += bytes.length;
      this.inbox = this.inbox.then(() => this.lobby(bytes)).catch((err) => this.broken(err));
    };
    this.ws.onclose = () => this.inbox.then(() => closed(this));
  }

  send(whole) {  // a message to the host: sealed after AUTH, in order
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (this.sealer === null) {
      this.ws.send(wire.send(whole));
      return;
    }
    this.outbox = this.outbox.then(async () => {
      const sealed = await this.sealer.seal(whole);
      if (this.ws.readyState === WebSocket.OPEN) this.ws.send(wire.send(sealed));
    });
  }

  broken(err) {
    this.final = this.final || `The host's messages could not be read (${err.message}).`;
    this.ws.close();
  }

  async lobby(bytes) {
    const m = wire.lobbyMessage(bytes);
    if (m.kind === wire.L.ENTERED) {
      status(`Joining room ${room}…`);
      this.send(wire.hello(this.nonce, this.name, this.watching));
    } else if (m.kind === wire.L.REFUSED) {
      this.refused = m.reason;
    } else {
      for (const [type, payload] of this.stream.push(m.data)) await this.message(type, payload);
    }
  }

  async message(type, payload) {
    if (type === wire.T.SEALED) {
      if (this.opener === null) throw new wire.WireError("a sealed message before AUTH");
      const inner = await this.opener.open(wire.parse(type, payload));
      if (inner === null) return;  // one that came again: ignored
      const [[innerType, innerPayload]] = new wire.Stream().push(inner);
      await this.sealed(wire.parse(innerType, innerPayload));
      return;
    }
    const m = wire.parse(type, payload);
    if (m.type === wire.T.BYE) {  // in the clear: a refusal before the seal (a wrong code)
      this.bye(m.reason);
    } else if (m.type === wire.T.CHALLENGE && this.opener === null) {
      if (m.protocol !== wire.PROTOCOL) {
        this.final = `The host speaks protocol ${m.protocol}, this page ${wire.PROTOCOL}: ` +
                     "the host and the lobby run different versions of zxmonopoly.";
        this.ws.close();
        return;
      }
      status("Checking the link…");
      const key = await codeKey;
      this.key = key;
      this.hostNonce = m.nonce;
      this.send(wire.auth(await seal.peerProof(key, m.nonce, this.nonce)));
      const [opening, sealing] = await seal.sessionKeys(key, m.nonce, this.nonce);
      this.opener = new seal.Opener(opening);
      this.sealer = new seal.Sealer(sealing);
      this.send(wire.claim(savedToken()));
    } else {
      throw new wire.WireError(`${wire.NAMES[type] || type} message out of order`);
    }
  }

  async sealed(m) {
    switch (m.type) {
      case wire.T.SEAT: return this.seat(m);
      case wire.T.SCREEN: {
        const sound = await picture.apply(m);
        if (this.screens === 0) {  // this connection's first: the speaker's count starts here
          zx.firstFrame = m.frame;
          beeper.edges = 0;
        }
        this.screens += 1;
        zx.screens += 1;
        zx.frame = m.frame;
        beeper.frame(sound.start, sound.edges);
        return;
      }
      case wire.T.PING: return this.send(wire.pong(m.stamp));
      case wire.T.ROSTER:
        zx.roster = m;
        return showPeople();
      case wire.T.TAKEN: {
        const key = zx.keys.find((k) => k.event === m.event);
        if (key) key.frame = m.frame;
        return;
      }
      case wire.T.BYE: return this.bye(m.reason);
      default: throw new wire.WireError(`${wire.NAMES[m.type]} message out of order`);
    }
  }

  async seat(m) {
    if (!seal.sameBytes(await seal.hostProof(this.key, this.hostNonce, this.nonce), m.mac)) {
      this.final = "The host does not know this link's code: this is not its game.";
      this.ws.close();
      return;
    }
    this.seated = true;
    zx.joins += 1;
    zx.seat = { slot: m.slot, join: m.join, delay: m.delay };
    zx.slot = m.slot === wire.NO_SLOT ? null : m.slot;
    zx.name = m.name;
    zx.ahead = m.delay;
    if (zx.slot !== null) {
      saveToken(m.token);
      status(`Playing as player ${zx.slot + 1} (${m.name})`);
      zx.state = "playing";
    } else {
      status("Watching");
      zx.state = "watching";
    }
    say("");
    keyboard.build(m.labels);
    canvas.hidden = false;
    $("mute").hidden = false;
    $("show-keys").hidden = false;
    if (zx.slot !== null && matchMedia("(pointer: coarse), (max-width: 700px)").matches) {
      $("keyboard").hidden = false;
    }
    fit();
  }

  bye(reason) {
    const text = reason.replace(/^dropped: /, "");
    if (/wrong join code/.test(text)) {
      this.final = "This link is wrong or has expired: the host does not know its code. " +
                   "Ask the host for the link again.";
    } else if (/watching link's code/.test(text)) {
      this.final = "This link is for watching only.";
    } else if (/the game is full/.test(text)) {
      this.final = `The game is full (${text.replace(/^the game is full: /, "")}). You can watch it.`;
      $("watch-instead").hidden = this.watching;
    } else if (/no room: /.test(text)) {
      this.final = `No room to watch: ${text.replace(/^no room: /, "")}.`;
    } else if (/the host ended the game|the game is over/.test(text)) {
      this.final = "The host has ended the game.";
    } else if (!COMEBACK.some((c) => text.includes(c))) {
      this.final = `The host let this page go: ${text}.`;
    }
    this.byeReason = text;
    this.ws.close();
  }
}

function closed(session) {
  if (session !== current) return;
  current = null;
  keys.letGoAll();
  const refused = session.refused || "";
  if (/^no room /.test(refused)) {
    session.final = `This link has expired: there is no game in room ${room} ` +
                    "(it is over, or the link is mistyped).";
  } else if (/the host left room/.test(refused)) {
    session.final = "The host has left: the game is over.";
  } else if (refused && !/try again/.test(refused) && !session.final) {
    session.final = `The lobby let this page go: ${refused}.`;
  }
  if (session.final) {
    say(session.final, "ended");
    status("Not connected");
    if (!session.seated && zx.joins === 0) canvas.hidden = true;
    return;
  }
  if (zx.joins === 0 && !session.seated && Date.now() - startedAt > 15000) {
    say("Cannot reach the game's lobby. Is the link right, and the host's game still on?",
        "ended");
    return;
  }
  if (zx.state !== "lost") lostAt = Date.now();
  if (Date.now() - lostAt > REJOIN_FOR) {
    say("The connection was lost for 10 minutes: giving up.", "ended");
    return;
  }
  const why = session.byeReason || refused || "the connection was lost";
  say(zx.joins ? `Connection lost (${why}): joining again…` : `Joining… (${why})`, "lost");
  status(zx.joins ? "Connection lost" : "Joining");
  setTimeout(() => join(session.watching), REJOIN_EVERY);
}

let lostAt = Date.now();
const startedAt = Date.now();

function join(watching) {
  if (current !== null) return;
  const name = $("name").value.trim() || (watching ? "spectator" : "browser");
  current = new Session(watching, name);
}

// -- the seat token, kept for coming back -----------------------------------------------------

const tokenKey = `zxmonopoly.seat.${room}`;

function savedToken() {
  const hex = localStorage.getItem(tokenKey) || "";
  const token = new Uint8Array(wire.TOKEN_SIZE);
  if (/^[0-9a-f]{32}$/.test(hex)) {
    for (let i = 0; i < token.length; i++) token[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  }
  return token;
}

function saveToken(token) {
  localStorage.setItem(tokenKey, [...token].map((b) => b.toString(16).padStart(2, "0")).join(""));
}

// -- keys -------------------------------------------------------------------------------------

let event = 0;
function sendKey(kind, source, keysDown) {
  const session = current;
  if (session === null || zx.state !== "playing") return;
  event += 1;
  if (kind !== wire.KEY_UP) {
    zx.keys.push({ event, down: performance.now() });
    if (zx.keys.length > 200) zx.keys.shift();
  }
  zx.keysSent += 1;
  session.send(wire.key(event, kind, source, keysDown));
}

const playing = () => zx.state === "playing";
const keys = new PcKeyboard(sendKey, playing);
const keyboard = new TouchKeyboard($("keyboard"), sendKey, playing);

// -- the page's start -------------------------------------------------------------------------

function start() {
  $("room").textContent = /^[0-9A-Z]{4}$/.test(room) ? `room ${room}` : "";
  if (!seal.available()) {
    say("This page needs a secure connection (https) to check the link's code: open the " +
        "link as the host gave it, with https://.", "ended");
    status("Cannot start");
    return;
  }
  if (!/^[0-9A-Z]{4}$/.test(room) || code === null) {
    say("This link is not whole: it ends with # and the game's code (like " +
        "https://lobby.example.org/r/K7QF#7K3QF-M2X9A). Ask the host for it again.", "ended");
    status("Cannot start");
    return;
  }
  codeKey = seal.codeKey(code);
  const name = $("name");
  name.value = localStorage.getItem("zxmonopoly.name") || "";
  if (watchLink) {
    $("play").hidden = true;
    $("join-what").textContent = "You are invited to watch a game of Monopoly on a ZX Spectrum.";
  }
  const go = (watching) => {
    localStorage.setItem("zxmonopoly.name", name.value.trim());
    $("join").hidden = true;
    beeper.start();  // in the click: browsers allow sound only after a gesture
    status("Joining…");
    join(watching);
  };
  $("play").onclick = () => go(false);
  $("watch").onclick = () => go(true);
  $("watch-instead").onclick = () => {
    $("watch-instead").hidden = true;
    say("");
    join(true);
  };
  name.addEventListener("keydown", (e) => {
    if (e.key === "Enter") go(watchLink);
  });
  $("mute").onclick = () => {
    beeper.setMuted(!beeper.muted);
    if (!beeper.muted) beeper.start();
    $("mute").textContent = beeper.muted ? "Sound: off" : "Sound: on";
  };
  $("show-keys").onclick = () => {
    $("keyboard").hidden = !$("keyboard").hidden;
    fit();
  };
  $("join").hidden = false;
  status(watchLink ? "Invited to watch" : "Invited to play");
  name.focus();
  zx.state = "ready";
  fit();
  requestAnimationFrame(draw);
}

start();
