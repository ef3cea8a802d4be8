// A page's keys (docs/window.md, "PC keys -> Spectrum keys"): the PC keyboard mapped as the
// window maps it, and an on-screen Spectrum keyboard for touch screens with the game's keys
// marked (as F1 marks them). Each key going down or up is a KEY to the host, which lays the
// presses on the frames with the window's rules (a tap is held its frames, in order).

import { KEY_DOWN, KEY_TYPED, KEY_UP } from "./wire.js";

// The matrix's half-rows in port order, bit 0 first (spectrum/keyboard.py).
export const HALF_ROWS = [
  ["CAPS SHIFT", "Z", "X", "C", "V"],
  ["A", "S", "D", "F", "G"],
  ["Q", "W", "E", "R", "T"],
  ["1", "2", "3", "4", "5"],
  ["0", "9", "8", "7", "6"],
  ["P", "O", "I", "U", "Y"],
  ["ENTER", "L", "K", "J", "H"],
  ["SPACE", "SYMBOL SHIFT", "M", "N", "B"],
];
export const CS = "CAPS SHIFT", SS = "SYMBOL SHIFT";

// Characters typed as their SYMBOL SHIFT key, alone (spectrum/keyboard.py's table).
export const SYMBOL_SHIFT_KEYS = {
  "!": "1", "@": "2", "#": "3", "$": "4", "%": "5", "&": "6", "'": "7", "(": "8", ")": "9",
  "_": "0", "*": "B", "?": "C", "^": "H", "↑": "H", "-": "J", "+": "K", "=": "L", ".": "M",
  ",": "N", ";": "O", '"': "P", "<": "R", ">": "T", "/": "V", "£": "X", ":": "Z",
};

// PC keys held (by the DOM's key code) -> the Spectrum keys they hold (ui/keys.py's map);
// letters and digits are added below.
export const PC_KEYS = {
  Enter: ["ENTER"], NumpadEnter: ["ENTER"], Space: ["SPACE"],
  ShiftLeft: [CS], ShiftRight: [CS],
  ControlLeft: [SS], ControlRight: [SS], AltLeft: [SS], AltRight: [SS],
  Backspace: [CS, "0"],
  ArrowLeft: [CS, "5"], ArrowDown: [CS, "6"], ArrowUp: [CS, "7"], ArrowRight: [CS, "8"],
};
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") PC_KEYS["Key" + c] = [c];
for (const d of "0123456789") {
  PC_KEYS["Digit" + d] = [d];
  PC_KEYS["Numpad" + d] = [d];
}

const WHERE = {};
HALF_ROWS.forEach((names, row) => names.forEach((name, bit) => { WHERE[name] = [row, 1 << bit]; }));

/** Spectrum keys by name as a KEY's 8 bytes (a bit set for each key pressed). */
export function keysOf(names) {
  const out = new Uint8Array(8);
  for (const name of names) {
    const [row, mask] = WHERE[name];
    out[row] |= mask;
  }
  return out;
}

/** The PC keyboard, while ``active()``: each key a KEY through ``send(kind, source, keys)``. */
export class PcKeyboard {
  constructor(send, active) {
    this.send = send;
    this.active = active;
    this.held = new Map();  // DOM code -> the page's source number
    this.sources = new Map();
    addEventListener("keydown", (e) => this.down(e));
    addEventListener("keyup", (e) => this.up(e));
    addEventListener("blur", () => this.letGoAll());
  }

  source(code) {
    if (!this.sources.has(code)) this.sources.set(code, 1 + (this.sources.size % 190));
    return this.sources.get(code);
  }

  down(e) {
    if (!this.active() || e.target instanceof HTMLInputElement) return;
    if (e.metaKey) return;  // the PC's own shortcuts
    let names = PC_KEYS[e.code];
    if (names && e.code.startsWith("Key") && /^[a-z]$/i.test(e.key)) {
      names = [e.key.toUpperCase()];  // a letter is the one the layout types
    }
    if (names) {
      e.preventDefault();
      if (e.repeat || this.held.has(e.code)) return;  // the ROM repeats keys itself
      const source = this.source(e.code);
      this.held.set(e.code, source);
      this.send(KEY_DOWN, source, keysOf(names));
    } else if (e.key in SYMBOL_SHIFT_KEYS) {
      e.preventDefault();
      if (!e.repeat) this.send(KEY_TYPED, 0, keysOf([SS, SYMBOL_SHIFT_KEYS[e.key]]));
    }
  }

  up(e) {
    const source = this.held.get(e.code);
    if (source === undefined) return;
    this.held.delete(e.code);
    this.send(KEY_UP, source, new Uint8Array(8));
  }

  letGoAll() {
    for (const source of this.held.values()) this.send(KEY_UP, source, new Uint8Array(8));
    this.held.clear();
  }
}

// The on-screen keyboard: the Spectrum's four rows, and the keys a PC has apart.
const ROWS = [
  ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"],
  ["Q", "W", "E", "R", "T", "Y", "U", "I", "O", "P"],
  ["A", "S", "D", "F", "G", "H", "J", "K", "L", "ENTER"],
  [CS, "Z", "X", "C", "V", "B", "N", "M", SS, "SPACE"],
];
const EXTRA = [["DELETE", [CS, "0"]], ["←", [CS, "5"]], ["↓", [CS, "6"]], ["↑", [CS, "7"]],
               ["→", [CS, "8"]]];
const SHORT = { [CS]: "CAPS", [SS]: "SYM", ENTER: "ENTER", SPACE: "SPACE" };
const TOUCH_SOURCE = 200;

/** The on-screen keyboard in ``box``; ``labels`` the game's keys (key name -> what). */
export class TouchKeyboard {
  constructor(box, send, active) {
    this.box = box;
    this.send = send;
    this.active = active;
    this.latched = new Set();
    this.down = new Map();  // pointer id -> source
  }

  build(labels) {
    this.box.replaceChildren();
    let index = 0;
    const rows = [...ROWS.map((row) => row.map((name) => [name, [name]])), EXTRA];
    for (const row of rows) {
      const line = document.createElement("div");
      line.className = "keyrow";
      for (const [name, names] of row) {
        const key = document.createElement("button");
        key.type = "button";
        key.className = "key";
        key.dataset.key = name;
        const symbol = Object.keys(SYMBOL_SHIFT_KEYS).find((c) => SYMBOL_SHIFT_KEYS[c] === name &&
                                                            c !== "↑");
        key.innerHTML = "";
        const main = document.createElement("span");
        main.className = "main";
        main.textContent = SHORT[name] || name;
        if (main.textContent.length > 2) key.classList.add("word");
        key.append(main);
        if (labels[name]) {
          key.classList.add("game");
          const label = document.createElement("span");
          label.className = "label";
          label.textContent = labels[name];
          key.prepend(label);
        } else if (symbol && names.length === 1) {
          const sym = document.createElement("span");
          sym.className = "symbol";
          sym.textContent = symbol;
          key.append(sym);
        }
        if (name === CS || name === SS) key.classList.add("shift");
        this.wire(key, names, TOUCH_SOURCE + index++);
        line.append(key);
      }
      this.box.append(line);
    }
  }

  wire(key, names, source) {
    const shift = names.length === 1 && (names[0] === CS || names[0] === SS);
    key.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      if (!this.active()) return;
      if (shift) {  // a shift latches for the next key (tap it again to let it go)
        if (this.latched.has(names[0])) this.latched.delete(names[0]);
        else this.latched.add(names[0]);
        key.classList.toggle("latched", this.latched.has(names[0]));
        return;
      }
      key.setPointerCapture(e.pointerId);
      key.classList.add("pressed");
      this.down.set(e.pointerId, source);
      this.send(KEY_DOWN, source, keysOf([...this.latched, ...names]));
    });
    const up = (e) => {
      const held = this.down.get(e.pointerId);
      if (held === undefined) return;
      this.down.delete(e.pointerId);
      key.classList.remove("pressed");
      this.send(KEY_UP, held, new Uint8Array(8));
      this.latched.clear();
      for (const k of this.box.querySelectorAll(".latched")) k.classList.remove("latched");
    };
    key.addEventListener("pointerup", up);
    key.addEventListener("pointercancel", up);
    key.addEventListener("contextmenu", (e) => e.preventDefault());
  }
}
