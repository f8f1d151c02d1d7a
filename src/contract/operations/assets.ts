import { z } from 'zod';
import { IMAGE_TYPES } from '../../domain/images.js';
import { assetParams } from '../accounts.js';
import { defineOperations } from '../operation.js';

/** Uploaded images (avatars, logos, service photos), readable by members of their workspace. */
export const assetOperations = defineOperations({
  getAsset: {
    method: 'GET',
    path: '/assets/:assetId',
    summary: 'An uploaded image',
    tags: ['assets'],
    access: 'user',
    params: assetParams,
    response: z.string().meta({ format: 'binary' }),
    produces: IMAGE_TYPES,
    errors: [401, 403, 404],
  },
});
