/**
 * Draws Beacon's icon (a lamp sending out three arcs of light on navy) into public/icons as PNGs:
 * the regular icons, and maskable ones whose emblem stays inside the central safe zone.
 * Run `node scripts/make-icons.mjs` after changing the design; the PNGs are committed assets.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const NAVY = [30, 58, 138];
const WHITE = [255, 255, 255];
const AMBER = [251, 191, 36];

function crc32(buf) {
  let c,
    crc = 0xffffffff;
  for (const byte of buf) {
    c = (crc ^ byte) & 0xff;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(size, pixel) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) row.set(pixel(x, y), 1 + x * 4);
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8;
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The colour at (u, v) in [0,1]², `scale` shrinking the emblem towards the centre; null is background. */
function emblem(u, v, scale) {
  const x = (u - 0.5) / scale;
  const y = (v - 0.5) / scale;
  const lampY = 0.12;
  const r = Math.hypot(x, y - lampY);
  if (r < 0.1) return AMBER;
  // Three arcs opening upwards, above the lamp.
  const angle = Math.atan2(-(y - lampY), x);
  if (angle > Math.PI * 0.22 && angle < Math.PI * 0.78) {
    for (const radius of [0.18, 0.28, 0.38]) if (Math.abs(r - radius) < 0.03) return WHITE;
  }
  // The tower below the lamp.
  if (y > lampY + 0.1 && y < 0.42 && Math.abs(x) < 0.05 + (y - lampY) * 0.25) return WHITE;
  return null;
}

function render(size, { maskable }) {
  const samples = 4;
  const radius = maskable ? 0 : 0.18; // rounded corners for the regular icon, full bleed when maskable
  return png(size, (px, py) => {
    let acc = [0, 0, 0, 0];
    for (let sy = 0; sy < samples; sy++) {
      for (let sx = 0; sx < samples; sx++) {
        const u = (px + (sx + 0.5) / samples) / size;
        const v = (py + (sy + 0.5) / samples) / size;
        const cx = Math.max(radius - u, u - (1 - radius), 0);
        const cy = Math.max(radius - v, v - (1 - radius), 0);
        if (radius > 0 && Math.hypot(cx, cy) > radius) continue;
        const colour = emblem(u, v, maskable ? 0.72 : 1) ?? NAVY;
        acc = [acc[0] + colour[0], acc[1] + colour[1], acc[2] + colour[2], acc[3] + 255];
      }
    }
    const n = samples * samples;
    const alpha = acc[3] / n;
    return alpha === 0
      ? [0, 0, 0, 0]
      : [acc[0] / (acc[3] / 255), acc[1] / (acc[3] / 255), acc[2] / (acc[3] / 255), alpha].map(Math.round);
  });
}

mkdirSync(new URL('../public/icons/', import.meta.url), { recursive: true });
for (const size of [192, 512]) {
  writeFileSync(new URL(`../public/icons/icon-${size}.png`, import.meta.url), render(size, { maskable: false }));
  writeFileSync(new URL(`../public/icons/maskable-${size}.png`, import.meta.url), render(size, { maskable: true }));
}
console.log('icons written to public/icons');
