import { workspace } from '../accounts.js';
import { defineOperations } from '../operation.js';

/** The workspace of the host (docs/decisions.md#runtime-and-dependencies). */
export const workspaceOperations = defineOperations({
  getWorkspace: {
    method: 'GET',
    path: '/workspace',
    summary: 'The workspace of the Host subdomain',
    tags: ['workspace'],
    access: 'public',
    response: workspace,
    errors: [404],
  },
});
