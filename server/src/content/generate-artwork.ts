// Hero artwork, generated at build time: abstract, deterministic SVG per item. The slug seeds the
// composition and the section picks the palette and motif, so every card differs but each section
// keeps one look. No text, no external references: the file is the whole image.
import { ARTWORK_SIZE } from '../../../contract/artwork-size.js';

const { width: ARTWORK_WIDTH, height: ARTWORK_HEIGHT } = ARTWORK_SIZE;

export const artworkThemes = [
  'health',
  'wealth',
  'direct-action',
  'collective',
  'empowerment',
] as const;
export type ArtworkTheme = (typeof artworkThemes)[number];

interface Palette {
  /** Gradient from top-left to bottom-right. */
  background: readonly [string, string];
  shapes: readonly string[];
  light: string;
  accent: string;
}

/** The one accent every section's palette shares: the site's yellow. */
const ACCENT = '#f5c542';

/** A section's palette: its gradient, three shape colours from dark to pale, its light. */
const palette = (
  background: readonly [string, string],
  shapes: readonly string[],
  light: string,
): Palette => ({ background, shapes, light, accent: ACCENT });

const palettes: Record<ArtworkTheme, Palette> = {
  health: palette(['#0e3b34', '#1c6b59'], ['#2f8f74', '#5fb394', '#9fd6bb'], '#f3ead6'),
  wealth: palette(['#101f45', '#1f47b8'], ['#2d5be0', '#5b86f0', '#9fb8f7'], '#eee4cc'),
  'direct-action': palette(['#3a120d', '#a93522'], ['#c8462f', '#e8745a', '#f3a98f'], '#f8e6d8'),
  collective: palette(['#1e1133', '#5a3390'], ['#7447b3', '#a27ad6', '#cdb4ef'], '#f2eafb'),
  empowerment: palette(['#0b2b3b', '#176f93'], ['#1d8bb5', '#4fb3d6', '#9bdcee'], '#e9f6fa'),
};

type Random = () => number;
type Motif = (random: Random, palette: Palette) => string[];

/** Each section has a few compositions; the slug picks one, so a list of cards does not repeat. */
const motifs: Record<ArtworkTheme, readonly Motif[]> = {
  health: [drawHorizon, drawCells],
  wealth: [drawSteps, drawGrowth, drawCoins],
  'direct-action': [drawStripes],
  collective: [drawCrowd],
  empowerment: [drawRipples],
};

/** The SVG document for one item. The same seed and theme always give the same bytes. */
export function generateArtwork(seed: string, theme: ArtworkTheme): string {
  const palette = palettes[theme];
  const random = createRandom(`${theme}:${seed}`);
  const [from, to] = random() < 0.5 ? palette.background : [...palette.background].reverse();
  const choices = motifs[theme];
  const motif = choices[Math.floor(random() * choices.length)] ?? drawCells;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${ARTWORK_WIDTH} ${ARTWORK_HEIGHT}" width="${ARTWORK_WIDTH}" height="${ARTWORK_HEIGHT}">`,
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="${round2(random())}"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>`,
    `<rect width="${ARTWORK_WIDTH}" height="${ARTWORK_HEIGHT}" fill="url(#bg)"/>`,
    ...motif(random, palette),
    '</svg>',
  ].join('');
}

/** A sun over rolling hills. */
function drawHorizon(random: Random, palette: Palette): string[] {
  const sunColor = random() < 0.7 ? palette.light : palette.accent;
  const sun = circle(
    between(random, 250, 1350),
    between(random, 170, 360),
    between(random, 110, 220),
    sunColor,
    0.92,
  );
  const count = Math.floor(between(random, 3, 6));
  const bands = Array.from({ length: count }, (_, index) => {
    const top = 430 + (index * 420) / count + between(random, -25, 25);
    const color = pick(random, palette.shapes);
    const opacity = 0.5 + (index * 0.5) / count;
    const path = wavePath(
      top,
      between(random, 20, 80),
      between(random, 0, 800),
      between(random, 280, 520),
    );
    return `<path d="${path}" fill="${color}" fill-opacity="${round2(opacity)}"/>`;
  });
  return [sun, ...bands];
}

/** Large overlapping cells, like a close-up of something alive. */
function drawCells(random: Random, palette: Palette): string[] {
  const count = Math.floor(between(random, 4, 7));
  const cells = Array.from({ length: count }, () =>
    circle(
      between(random, 100, 1500),
      between(random, 100, 800),
      between(random, 140, 360),
      pick(random, palette.shapes),
      between(random, 0.45, 0.85),
    ),
  );
  const nucleus = circle(
    between(random, 300, 1300),
    between(random, 250, 650),
    between(random, 40, 80),
    random() < 0.5 ? palette.accent : palette.light,
    1,
  );
  return [...cells, nucleus];
}

/** Rising bars, faint grid lines and a coin. */
function drawSteps(random: Random, palette: Palette): string[] {
  const count = Math.floor(between(random, 5, 10));
  const width = ARTWORK_WIDTH / (count + 1.5);
  const bars = Array.from({ length: count }, (_, index) => {
    const height = 160 + (index * 540) / count + between(random, -70, 70);
    const x = width * 0.75 + index * width;
    const color = palette.shapes[index % palette.shapes.length] ?? palette.light;
    return `<rect x="${round(x + 10)}" y="${round(ARTWORK_HEIGHT - height)}" width="${round(width - 20)}" height="${round(height + 20)}" rx="16" fill="${color}" fill-opacity="0.9"/>`;
  });
  return [...gridLines(), ...bars, ...coin(random, palette, between(random, 220, 700))];
}

/** An area chart climbing to the right, its points marked. */
function drawGrowth(random: Random, palette: Palette): string[] {
  const count = 7;
  const points = Array.from({ length: count }, (_, index) => {
    const x = (index * ARTWORK_WIDTH) / (count - 1);
    const y = 760 - (index * 520) / (count - 1) + between(random, -90, 60);
    return [round(x), round(Math.min(Math.max(y, 120), 820))] as const;
  });
  const line = points.map(([x, y]) => `${x},${y}`).join(' ');
  const area = `<polygon points="0,${ARTWORK_HEIGHT} ${line} ${ARTWORK_WIDTH},${ARTWORK_HEIGHT}" fill="${pick(random, palette.shapes)}" fill-opacity="0.55"/>`;
  const stroke = `<polyline points="${line}" fill="none" stroke="${palette.light}" stroke-width="14" stroke-linejoin="round"/>`;
  const dots = points.slice(1, -1).map(([x, y]) => circle(x, y, 20, palette.accent, 1));
  return [...gridLines(), area, stroke, ...dots];
}

/** Stacks of coins growing side by side. */
function drawCoins(random: Random, palette: Palette): string[] {
  const stacks = Math.floor(between(random, 4, 7));
  const spacing = ARTWORK_WIDTH / (stacks + 1);
  const coinWidth = Math.min(220, spacing * 0.75);
  const coins: string[] = [];
  for (let stack = 0; stack < stacks; stack++) {
    const height = Math.floor(between(random, 3, 5) + stack * between(random, 1, 2.2));
    const x = spacing * (stack + 1);
    for (let level = 0; level < height; level++) {
      const y = 820 - level * 58;
      const color = level === height - 1 ? palette.accent : pick(random, palette.shapes);
      coins.push(
        `<rect x="${round(x - coinWidth / 2)}" y="${round(y)}" width="${round(coinWidth)}" height="48" rx="24" fill="${color}"/>`,
      );
    }
  }
  return [...gridLines(), ...coins];
}

function gridLines(): string[] {
  return Array.from({ length: 8 }, (_, index) => {
    const y = 100 * (index + 1);
    return `<path d="M0 ${y}H${ARTWORK_WIDTH}" stroke="#fff" stroke-opacity="0.08" stroke-width="2"/>`;
  });
}

function coin(random: Random, palette: Palette, x: number): string[] {
  const y = between(random, 170, 300);
  const r = between(random, 90, 140);
  return [
    circle(x, y, r, palette.accent, 1),
    `<circle cx="${round(x)}" cy="${round(y)}" r="${round(r * 0.72)}" fill="none" stroke="${palette.background[0]}" stroke-opacity="0.35" stroke-width="10"/>`,
  ];
}

/** Bold diagonal stripes and a ring: forward motion. */
function drawStripes(random: Random, palette: Palette): string[] {
  const count = Math.floor(between(random, 5, 8));
  const slant = between(random, 300, 520);
  let x = between(random, -200, 100);
  const stripes: string[] = [];
  for (let index = 0; index < count && x < ARTWORK_WIDTH + slant; index++) {
    const width = between(random, 70, 190);
    const color = palette.shapes[index % palette.shapes.length] ?? palette.light;
    const points = [
      [x + slant, 0],
      [x + slant + width, 0],
      [x + width, ARTWORK_HEIGHT],
      [x, ARTWORK_HEIGHT],
    ]
      .map(([px = 0, py = 0]) => `${round(px)},${round(py)}`)
      .join(' ');
    stripes.push(`<polygon points="${points}" fill="${color}" fill-opacity="0.85"/>`);
    x += width + between(random, 60, 200);
  }
  const ring = `<circle cx="${round(between(random, 900, 1400))}" cy="${round(between(random, 250, 650))}" r="${round(between(random, 150, 240))}" fill="none" stroke="${palette.light}" stroke-width="34"/>`;
  const dot = circle(
    between(random, 150, 700),
    between(random, 120, 300),
    between(random, 28, 48),
    palette.accent,
    1,
  );
  return [...stripes, ring, dot];
}

/** A field of people-dots with one group standing together. */
function drawCrowd(random: Random, palette: Palette): string[] {
  const columns = 16;
  const rows = 9;
  const step = 100;
  const centreColumn = between(random, 3, columns - 3);
  const centreRow = between(random, 2, rows - 2);
  const groupRadius = between(random, 2.2, 3.4);
  const dots: string[] = [];
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const distance = Math.hypot(column - centreColumn, row - centreRow);
      const inGroup = distance < groupRadius;
      const r = between(random, 22, 34);
      const x = column * step + step / 2 + between(random, -8, 8);
      const y = row * step + step / 2 + between(random, -8, 8);
      const fill = inGroup
        ? distance < 1
          ? palette.accent
          : palette.light
        : (palette.shapes[(row + column) % palette.shapes.length] ?? palette.light);
      dots.push(circle(x, y, r, fill, inGroup ? 1 : 0.35));
    }
  }
  return dots;
}

/** Concentric ripples spreading from a point on one edge. */
function drawRipples(random: Random, palette: Palette): string[] {
  const origins = [
    [between(random, 200, 1400), between(random, 860, 1000)],
    [between(random, -100, 60), between(random, 150, 750)],
    [between(random, 1540, 1700), between(random, 150, 750)],
    [between(random, 1300, 1700), between(random, -100, 100)],
  ] as const;
  const [cx, cy] = origins[Math.floor(random() * origins.length)] ?? origins[0];
  const width = between(random, 30, 64);
  const gap = between(random, 30, 80);
  const count = Math.floor(between(random, 7, 12));
  const rings = Array.from({ length: count }, (_, index) => {
    const r = 150 + index * (width + gap);
    const color =
      index % 3 === 2
        ? palette.light
        : (palette.shapes[index % palette.shapes.length] ?? palette.light);
    return `<circle cx="${round(cx)}" cy="${round(cy)}" r="${round(r)}" fill="none" stroke="${color}" stroke-opacity="${round2(Math.max(0.95 - index * 0.07, 0.2))}" stroke-width="${round(width)}"/>`;
  });
  const spark = circle(
    cx > ARTWORK_WIDTH / 2 ? between(random, 180, 520) : between(random, 1080, 1420),
    cy > ARTWORK_HEIGHT / 2 ? between(random, 140, 300) : between(random, 600, 760),
    between(random, 36, 60),
    palette.accent,
    1,
  );
  return [circle(cx, cy, 110, palette.accent, 1), ...rings, spark];
}

/** A filled band from `top` to the bottom edge whose upper edge is a smooth wave. */
function wavePath(top: number, amplitude: number, phase: number, segment: number): string {
  const start = -segment - (phase % segment);
  let up = phase % (2 * segment) < segment ? -1 : 1;
  let path = `M${round(start)} ${round(top)}`;
  for (let x = start; x < ARTWORK_WIDTH; x += segment) {
    const crest = round(top + up * amplitude);
    path += ` C${round(x + segment / 3)} ${crest} ${round(x + (2 * segment) / 3)} ${crest} ${round(x + segment)} ${round(top)}`;
    up = -up;
  }
  return `${path} V${ARTWORK_HEIGHT} H${round(start)} Z`;
}

function circle(cx: number, cy: number, r: number, fill: string, opacity: number): string {
  const fillOpacity = opacity < 1 ? ` fill-opacity="${round2(opacity)}"` : '';
  return `<circle cx="${round(cx)}" cy="${round(cy)}" r="${round(r)}" fill="${fill}"${fillOpacity}/>`;
}

/** mulberry32, seeded with an FNV-1a hash of the text: small, fast and stable across platforms. */
function createRandom(text: string): Random {
  let seed = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    seed ^= text.charCodeAt(index);
    seed = Math.imul(seed, 0x01000193);
  }
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let value = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function between(random: Random, min: number, max: number): number {
  return min + random() * (max - min);
}

function pick(random: Random, items: readonly string[]): string {
  return items[Math.floor(random() * items.length)] ?? '#ffffff';
}

const round = (value: number) => Math.round(value);
const round2 = (value: number) => Math.round(value * 100) / 100;
