/** The screens' own routes, for links and navigation (API paths come from the contract's operations). */
export const servicePath = (handle: string) => `/services/${encodeURIComponent(handle)}`;
export const teamPath = (handle: string) => `/teams/${encodeURIComponent(handle)}`;
export const userPath = (idOrHandle: string) => `/users/${encodeURIComponent(idOrHandle)}`;
