/**
 * The paths outside the app that the server answers itself, for a browser's navigation too: the API, status pages
 * with their incidents, feeds, badges and subscription links (`/status/{page}/...`), alerts' acknowledge links
 * (`/alerts/{id}/ack`, reserved for them) and robots.txt. The service worker answers every other navigation with
 * the app and leaves these to the network (src/sw/sw.ts): the app would show its 404 for them.
 */
export const SERVER_PAGES: readonly RegExp[] = [
  /^\/api(?:[/?]|$)/,
  /^\/status\/[^/?]/,
  /^\/alerts\/[^/?]+\/ack(?:[/?]|$)/,
  /^\/robots\.txt(?:\?|$)/,
];

/** Whether a path (with its query, if any) is one of the server's own pages. */
export function isServerPage(path: string): boolean {
  return SERVER_PAGES.some((pattern) => pattern.test(path));
}
