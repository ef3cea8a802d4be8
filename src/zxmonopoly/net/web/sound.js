// The beeper on the page: each frame's speaker changes (a SCREEN's) made into samples as
// spectrum/beeper.py makes them (the level averaged over each sample's time; MIC at 2/50 of
// EAR; a one-pole high-pass at 20 Hz), at the AudioContext's rate with 50 frames a second
// exactly, and played through Web Audio a little ahead of now.

const FRAME_TSTATES = 69888;
const CPU_HZ = FRAME_TSTATES * 50;  // timing.FIFTY_HZ_CPU: 50 frames a second exactly
const VOLUME = 8000 / 32768;
const MIC_WEIGHT = 2 / 50;
const DC_CUTOFF = 20;
const LEAD = 0.08;  // seconds played ahead of now (the network's jitter)
const MOST_AHEAD = 0.4;  // further ahead than this: frames are dropped (the page fell behind)

const levelOf = (bits) => ((bits >> 1) & 1) + MIC_WEIGHT * (1 - (bits & 1));

export class Beeper {
  constructor() {
    this.context = null;
    this.muted = false;
    this.bits = 0;
    this.phase = 0;  // T-state units (x rate) since the last sample boundary
    this.carry = 0;
    this.hpIn = 0;
    this.hpOut = 0;
    this.playAt = 0;
    this.edges = 0;  // speaker changes taken, for the tests
    this.frames = 0;
  }

  /** Start (in a user's gesture: browsers allow sound only after one). */
  start() {
    if (this.context === null) {
      const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
      if (!Context) return;
      this.context = new Context();
      this.pole = Math.exp(-2 * Math.PI * DC_CUTOFF / this.context.sampleRate);
    }
    if (this.context.state === "suspended") this.context.resume();
  }

  setMuted(muted) {
    this.muted = muted;
  }

  /** One frame's changes: its bits as it began and [T-state, bits] each. */
  frame(start, edges) {
    this.edges += edges.length;
    this.frames += 1;
    const ctx = this.context;
    if (ctx === null || this.muted || ctx.state !== "running") {
      this.bits = edges.length ? edges[edges.length - 1][1] : start;
      return;
    }
    const samples = this._samples(start, edges);
    const silent = edges.length === 0 && Math.abs(this.hpOut) < 1e-4;
    const now = ctx.currentTime;
    if (this.playAt < now + 0.01) this.playAt = now + LEAD;
    if (this.playAt > now + MOST_AHEAD || silent) {
      if (silent) this.playAt = 0;
      return;
    }
    const buffer = ctx.createBuffer(1, samples.length, ctx.sampleRate);
    buffer.copyToChannel(samples, 0);
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(ctx.destination);
    source.start(this.playAt);
    this.playAt += samples.length / ctx.sampleRate;
  }

  _samples(start, edges) {
    const rate = this.context.sampleRate;
    const span = FRAME_TSTATES * rate, period = CPU_HZ;
    const out = [];
    let level = levelOf(start), at = 0;
    let sum = this.carry, phase = this.phase;
    const run = (until) => {  // the level held from ``at`` to ``until`` (units)
      while (at < until) {
        const room = period - phase, step = Math.min(room, until - at);
        sum += level * step;
        phase += step;
        at += step;
        if (phase >= period) {
          out.push(this._highPass((sum / period) * VOLUME));
          sum = 0;
          phase = 0;
        }
      }
    };
    for (const [t, bits] of edges) {
      run(Math.min(Math.max(t, 0), FRAME_TSTATES) * rate);
      level = levelOf(bits);
      this.bits = bits;
    }
    run(span);
    this.carry = sum;
    this.phase = phase;
    return Float32Array.from(out);
  }

  _highPass(x) {
    const y = x - this.hpIn + this.pole * this.hpOut;
    this.hpIn = x;
    this.hpOut = y;
    return y;
  }
}
