import type { FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';

/**
 * Reads the one multipart file field named `icon`, refusing anything over the upload limit. The parser's own
 * errors (no boundary, a truncated or garbled body) carry no status: they are the client's malformed body, 400.
 */
export async function readIconUpload(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  if (!request.isMultipart())
    throw badRequest('Send the image as multipart/form-data in a field named icon', { icon: ['Required'] });
  try {
    const file = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
    if (!file || file.fieldname !== 'icon')
      throw badRequest('Send the image in a field named icon', { icon: ['Required'] });
    return await file.toBuffer();
  } catch (error) {
    const { code, statusCode } = error as { code?: string; statusCode?: number };
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw badRequest(`The image is larger than ${Math.round(maxBytes / 1024)} KB`, { icon: ['Too large'] });
    }
    if (statusCode !== undefined) throw error;
    throw badRequest(`Malformed multipart body: ${(error as Error).message}`, { icon: ['Malformed multipart body'] });
  }
}
