import { useAuth } from './auth-context.js';
import type { ApiClient } from '../api/client.js';

/** The API client of the signed-in session (every feature's one way to the server). */
export function useApi(): ApiClient {
  return useAuth().api;
}
