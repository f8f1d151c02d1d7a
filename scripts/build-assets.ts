/**
 * What the build does to the web app's assets so that fewer bytes go over the wire (vite.config.ts):
 *
 * - `trimVendorCss()`, a PostCSS plugin: PrimeFlex, the PrimeReact theme and PrimeIcons ship rules for every
 *   class and component they have; it keeps the rules whose classes appear in the app's sources or in the
 *   PrimeReact components they import, and rewrites their fonts: Inter subset to Latin and to the weights the
 *   app uses, PrimeIcons subset to the icons left, woff2 only. It runs before Vite hashes the CSS, so a file's
 *   name still changes whenever its content does (hashed assets are cached for good).
 * - `precompress()`: writes `.br` and `.gz` beside each compressible asset once, at build time, for the
 *   server's static handler to send as they are (`preCompressed`).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { AtRule, PluginCreator, Root } from 'postcss';
import { PurgeCSS } from 'purgecss';
import subsetFont from 'subset-font';
import type { Plugin } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODULES = join(ROOT, 'node_modules');
const VENDOR_CSS = /[\\/]node_modules[\\/](primeflex|primeicons|primereact)[\\/]/;

/** Google Fonts' "latin" range: what the app's own text needs; other characters fall back to sans-serif. */
const LATIN =
  'U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+2000-206F, U+2074, U+20AC, ' +
  'U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD';
/** The weights in use: the theme's 400-700 and PrimeFlex's font-semibold/font-bold. */
const INTER_WEIGHTS = { min: 400, max: 700 };
/** Inter's layout features the text needs, and the character variants the theme turns on (cv02...). */
const INTER_FEATURES = ['kern', 'liga', 'calt', 'ccmp', 'locl', 'mark', 'mkmk', 'cv02', 'cv03', 'cv04', 'cv11'];
/** Tags styled by the vendor CSS that the sources create without naming them as a word. */
const TAGS = 'html body a p span div input textarea select button svg path table thead tbody tfoot tr th td ul ol li';

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((file) => pattern.test(file) && statSync(file).isFile());
}

/** The ESM files of the PrimeReact modules the app imports, and of everything they import in turn. */
function primeReactFiles(sources: string[]): string[] {
  const files = new Set<string>();
  const specifiers = /['"](primereact\/[\w/]+)['"]/g;
  const visit = (text: string) => {
    for (const [, specifier] of text.matchAll(specifiers)) {
      const dir = join(MODULES, specifier!);
      const packageFile = join(dir, 'package.json');
      if (!existsSync(packageFile)) continue;
      const { module } = JSON.parse(readFileSync(packageFile, 'utf8')) as { module?: string };
      const file = module ? join(dir, module) : '';
      if (!file || files.has(file) || !existsSync(file)) continue;
      files.add(file);
      visit(readFileSync(file, 'utf8'));
    }
  };
  for (const source of sources) visit(source);
  return [...files];
}

/**
 * The words of the app's sources and of the PrimeReact code they use, and the prefixes that code completes at
 * run time (`"p-button-".concat(severity)`, `` `x-${y}` ``), which keep every class that starts with them.
 */
function collectContent(): { words: Set<string>; prefixes: string[] } {
  const app = filesUnder(join(ROOT, 'src', 'app'), /\.(tsx?|html)$/).map((file) => readFileSync(file, 'utf8'));
  // api.esm.js lists every PrimeIcons name; the icons in use are the ones the app names.
  const prime = primeReactFiles(app).map((file) => readFileSync(file, 'utf8').replace(/\bpi-[\w-]+/g, ''));
  const words = new Set<string>(TAGS.split(' '));
  const prefixes = new Set<string>();
  for (const text of [...app, ...prime]) {
    for (const [word] of text.matchAll(/[\w:-]+/g)) {
      words.add(word);
      for (const part of word.split(':')) words.add(part);
    }
    for (const [, prefix] of text.matchAll(/["'`]([a-z][\w-]*-)["']\s*(?:\.concat\(|\+)/g)) prefixes.add(prefix!);
    for (const [, prefix] of text.matchAll(/[`\s]([a-z][\w-]*-)\$\{/g)) prefixes.add(prefix!);
  }
  return { words, prefixes: [...prefixes] };
}

async function writeFont(outDir: string, name: string, font: Buffer): Promise<string> {
  const file = join(outDir, `${name}-${createHash('sha256').update(font).digest('hex').slice(0, 8)}.woff2`);
  writeFileSync(file, font);
  return file;
}

function declValue(face: AtRule, prop: string): string {
  let value = '';
  face.walkDecls(prop, (decl) => {
    value = decl.value;
  });
  return value;
}

/** Points the face at `font` (woff2 only), resolved by Vite relative to the CSS file like the original url. */
function setSource(face: AtRule, cssFile: string, font: string): void {
  const url = relative(dirname(cssFile), font).split('\\').join('/');
  let kept = false;
  // The first declaration is kept (rather than a new one added) for its source: Vite resolves the url from it.
  face.walkDecls('src', (decl) => {
    if (kept) decl.remove();
    else decl.value = `url("${url}") format("woff2")`;
    kept = true;
  });
}

async function trimFonts(root: Root, cssFile: string, outDir: string): Promise<void> {
  const faces: AtRule[] = [];
  root.walkAtRules('font-face', (face) => {
    faces.push(face);
  });
  for (const face of faces) {
    const family = declValue(face, 'font-family');
    const woff2 = declValue(face, 'src').match(/url\(['"]?([^'")?#]+\.woff2)/)?.[1];
    if (!woff2) continue;
    const original = readFileSync(resolve(dirname(cssFile), woff2));
    if (family.includes('Inter')) {
      const latin = LATIN.split(', ')
        .flatMap((range) => {
          const [from, to = from] = range
            .slice(2)
            .split('-')
            .map((hex) => parseInt(hex, 16));
          return Array.from({ length: to! - from! + 1 }, (_, i) => String.fromCodePoint(from! + i));
        })
        .join('');
      const font = await subsetFont(original, latin, {
        targetFormat: 'woff2',
        keepFeatures: INTER_FEATURES,
        variationAxes: { wght: INTER_WEIGHTS },
      });
      const style = declValue(face, 'font-style') || 'normal';
      setSource(face, cssFile, await writeFont(outDir, `inter-latin-${style}`, font));
      face.walkDecls('font-weight', (decl) => {
        decl.value = `${INTER_WEIGHTS.min} ${INTER_WEIGHTS.max}`;
        decl.cloneAfter({ prop: 'unicode-range', value: LATIN });
      });
    } else if (family.includes('primeicons')) {
      // The glyphs of the icon rules that were kept, e.g. `.pi-star:before { content: "\e9b4" }`.
      let glyphs = '';
      root.walkDecls('content', (decl) => {
        const hex = decl.value.match(/^["']\\([0-9a-f]{4})["']$/i)?.[1];
        if (hex) glyphs += String.fromCodePoint(parseInt(hex, 16));
      });
      if (!glyphs) {
        face.remove();
        continue;
      }
      const font = await subsetFont(original, glyphs, { targetFormat: 'woff2' });
      setSource(face, cssFile, await writeFont(outDir, 'primeicons', font));
    }
  }
}

/** The PostCSS plugin for the vendor CSS (the app's own styles.css is left as it is). */
export const trimVendorCss: PluginCreator<void> = () => {
  let content: ReturnType<typeof collectContent> | null = null;
  const outDir = join(MODULES, '.cache', 'beacon-fonts');
  return {
    postcssPlugin: 'beacon-trim-vendor-css',
    async Once(root, { postcss }) {
      const file = root.source?.input.file;
      if (!file || !VENDOR_CSS.test(file)) return;
      content ??= collectContent();
      mkdirSync(outDir, { recursive: true });
      const [purged] = await new PurgeCSS().purge({
        content: [{ raw: [...content.words].join(' '), extension: 'txt' }],
        css: [{ raw: root.toString() }],
        defaultExtractor: (text) => text.split(' '),
        safelist: { standard: [':root', ...content.prefixes.map((prefix) => new RegExp(`^${prefix}`))] },
        // The faces are trimmed below; the theme names its font through a variable PurgeCSS cannot follow.
        fontFace: false,
        keyframes: false,
        variables: false,
      });
      const trimmed = postcss.parse(purged!.css, { from: file });
      await trimFonts(trimmed, file, outDir);
      root.removeAll();
      root.append(trimmed.nodes);
    },
  };
};
trimVendorCss.postcss = true;

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|html|txt)$/;

/** Writes `name.br` and `name.gz` beside each compressible asset when they are smaller than it. */
export function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  return {
    name: 'beacon-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir!;
      const assets = Object.keys(bundle).filter((name) => name.startsWith('assets/') && COMPRESSIBLE.test(name));
      await Promise.all(
        assets.map(async (name) => {
          const file = join(dir, name);
          const data = readFileSync(file);
          const [br, gz] = await Promise.all([
            brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
            gzipped(data, { level: 9 }),
          ]);
          if (br.length < data.length) writeFileSync(`${file}.br`, br);
          if (gz.length < data.length) writeFileSync(`${file}.gz`, gz);
        }),
      );
    },
  };
}
