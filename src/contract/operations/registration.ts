import { betaCheck, betaChecked, registerWorkspace, workspaceRegistered } from '../accounts.js';
import { defineOperations } from '../operation.js';

const tags = ['registration'];

/** Creating a workspace with a beta key (spec/platform.md section 7). */
export const registrationOperations = defineOperations({
  checkBetaKey: {
    method: 'POST',
    path: '/register',
    summary: 'Step one: check that a beta key and email belong together',
    tags,
    access: 'public',
    body: betaCheck,
    response: betaChecked,
    errors: [400],
  },
  registerWorkspace: {
    method: 'POST',
    path: '/registration/register-workspace',
    summary: 'Step two: create the workspace and its owner',
    tags,
    access: 'public',
    body: registerWorkspace,
    response: workspaceRegistered,
    status: 201,
    errors: [400, 409],
  },
});
