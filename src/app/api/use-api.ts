import { useAuth } from '../session/auth-context.js';
import type { ApiClient } from './client.js';

/** The API client of the signed-in session (every feature's one way to the server). */
export function useApi(): ApiClient {
  return useAuth().api;
}
