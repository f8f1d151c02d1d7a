/** The username is the third colon-separated part of the token's sub claim (`user:{workspace}:{handle}`). */
export function usernameFromToken(token: string): string | null {
  try {
    const payload = token.split('.')[1];
    if (!payload) return null;
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub = (JSON.parse(json) as { sub?: string }).sub;
    return sub?.split(':')[2] ?? null;
  } catch {
    return null;
  }
}
