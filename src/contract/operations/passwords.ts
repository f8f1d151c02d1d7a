import { forgotPassword, resetPassword } from '../accounts.js';
import { messageBody } from '../common.js';
import { defineOperations } from '../operation.js';

const tags = ['passwords'];

/** Forgotten passwords (spec/platform.md section 7; docs/decisions.md#api-conventions). */
export const passwordOperations = defineOperations({
  forgotPassword: {
    method: 'POST',
    path: '/forgot-password',
    summary: 'Mail a reset link; always answers success so it reveals no accounts',
    tags,
    access: 'public',
    body: forgotPassword,
    response: messageBody,
    errors: [400, 429],
  },
  resetPassword: {
    method: 'POST',
    path: '/reset-password',
    summary: 'Set a new password with a single-use, expiring key',
    tags,
    access: 'public',
    body: resetPassword,
    response: messageBody,
    errors: [400],
  },
});
