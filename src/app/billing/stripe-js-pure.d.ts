/**
 * `@stripe/stripe-js/pure` is a folder without `exports` in the package, which NodeNext resolution cannot read
 * (Vite resolves it to `pure/index.mjs`). It is the root entry's `loadStripe` minus the import side effect.
 */
declare module '@stripe/stripe-js/pure' {
  export { loadStripe } from '@stripe/stripe-js';
}
