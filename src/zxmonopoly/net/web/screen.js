// The host's picture on the page (net/screen.py): each SCREEN's change applied to the
// page's picture (display file and attributes, the border of each visible line, FLASH's
// phase), drawn as the window draws the Spectrum (spectrum/video.py): 320 x 256 pixels,
// a border of 32 on every side, the palette of 0xC0 and 0xFF (BRIGHT) levels.

import { NO_FRAME, SCREEN_EAR, SCREEN_MIC, SCREEN_PICTURE, WireError } from "./wire.js";

export const WIDTH = 320, HEIGHT = 256, BORDER = 32;
export const SCREEN_SIZE = 6912, BITMAP_SIZE = 6144;
export const PICTURE_SIZE = SCREEN_SIZE + HEIGHT + 1;
const FLASH_AT = SCREEN_SIZE + HEIGHT;
export const EDGE_SIZE = 3, MAX_EDGES = 4096;

// 16 colours: bit 0 blue, bit 1 red, bit 2 green; + 8 BRIGHT.
export const PALETTE = Array.from({ length: 16 }, (_, i) => {
  const level = i & 8 ? 0xff : 0xc0;
  return [level * ((i >> 1) & 1), level * ((i >> 2) & 1), level * (i & 1)];
});

// The display file's address (from its start) of each of the 192 pixel rows.
const ROWS = Array.from({ length: 192 }, (_, y) =>
  ((y & 0xc0) << 5) | ((y & 0x07) << 8) | ((y & 0x38) << 2));

async function inflate(bytes, limit) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  const reader = stream.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      reader.cancel();
      throw new WireError(`a SCREEN of more than ${limit} bytes`);
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export class Picture {
  constructor() {
    this.reset();
  }

  reset() {
    this.picture = new Uint8Array(PICTURE_SIZE);
    this.frame = NO_FRAME;
    this.changed = true;
  }

  /** A SCREEN applied (in order); the frame's speaker changes: [T-state, bits] each. */
  async apply(screen) {
    if (screen.base === NO_FRAME) {
      this.picture = new Uint8Array(PICTURE_SIZE);
      this.changed = true;
    } else if (screen.base !== this.frame) {
      throw new WireError(`SCREEN of frame ${screen.frame} against frame ${screen.base}; ` +
                          `the page has frame ${this.frame}`);
    }
    const limit = PICTURE_SIZE + MAX_EDGES * EDGE_SIZE;
    const body = screen.data.length ? await inflate(screen.data, limit) : new Uint8Array(0);
    let sound = body;
    if (screen.flags & SCREEN_PICTURE) {
      if (body.length < PICTURE_SIZE) throw new WireError("a SCREEN's picture cut short");
      const picture = this.picture;
      for (let i = 0; i < PICTURE_SIZE; i++) picture[i] ^= body[i];
      sound = body.subarray(PICTURE_SIZE);
      this.changed = true;
    }
    if (sound.length % EDGE_SIZE) throw new WireError("a SCREEN's sound cut short");
    const edges = [];
    for (let k = 0; k < sound.length; k += EDGE_SIZE) {
      const v = (sound[k] << 16) | (sound[k + 1] << 8) | sound[k + 2];
      edges.push([v >> 2, v & 3]);
    }
    this.frame = screen.frame;
    const start = (screen.flags & SCREEN_EAR ? 2 : 0) | (screen.flags & SCREEN_MIC ? 1 : 0);
    return { start, edges };
  }

  /** Draw the picture into ``image`` (an ImageData of 320 x 256). */
  draw(image) {
    const out = image.data, pic = this.picture;
    const flash = pic[FLASH_AT] & 1;
    for (let line = 0; line < HEIGHT; line++) {
      const [r, g, b] = PALETTE[pic[SCREEN_SIZE + line] & 7];
      let at = line * WIDTH * 4;
      const display = line >= BORDER && line < BORDER + 192;
      for (let x = 0; x < WIDTH; x++, at += 4) {
        if (display && x === BORDER) {
          at = this._line(out, at, pic, line - BORDER, flash);
          x += 255;
          continue;
        }
        out[at] = r; out[at + 1] = g; out[at + 2] = b; out[at + 3] = 255;
      }
    }
    this.changed = false;
  }

  _line(out, at, pic, y, flash) {
    const row = ROWS[y], attrs = BITMAP_SIZE + 32 * (y >> 3);
    for (let column = 0; column < 32; column++) {
      let attr = pic[attrs + column];
      if (flash && attr & 0x80) attr = (attr & 0xc0) | ((attr & 7) << 3) | ((attr >> 3) & 7);
      const bright = (attr >> 3) & 8;
      const ink = PALETTE[(attr & 7) | bright], paper = PALETTE[((attr >> 3) & 7) | bright];
      const bits = pic[row + column];
      for (let bit = 7; bit >= 0; bit--, at += 4) {
        const c = (bits >> bit) & 1 ? ink : paper;
        out[at] = c[0]; out[at + 1] = c[1]; out[at + 2] = c[2]; out[at + 3] = 255;
      }
    }
    return at - 4;  // the caller's loop steps on by one pixel
  }
}
