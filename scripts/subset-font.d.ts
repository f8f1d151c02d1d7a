/** The part of subset-font (2.x, no types of its own) that scripts/build-assets.ts uses. */
declare module 'subset-font' {
  interface SubsetFontOptions {
    targetFormat?: 'sfnt' | 'woff' | 'woff2';
    /** OpenType layout features to keep; all by default. */
    keepFeatures?: string[];
    /** Pins (a number) or narrows (min/max) variation axes such as wght. */
    variationAxes?: Record<string, number | { min: number; max: number; default?: number }>;
  }
  export default function subsetFont(font: Buffer, text: string, options?: SubsetFontOptions): Promise<Buffer>;
}
