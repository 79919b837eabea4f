import { APIError } from 'better-auth/api';
import { NAME_MAX_LENGTH } from './display-name';

/**
 * update-user would take any user field better-auth knows (image, additional fields); the product
 * lets a person change their display name and nothing else, so every other field is refused before
 * better-auth sees the body. A name is trimmed text, empty allowed (the header then shows the email).
 */
export function refuseAllButName(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new APIError('BAD_REQUEST', { message: 'the body must be an object: {"name": "..."}' });
  }
  const other = Object.keys(body).filter((key) => key !== 'name');
  if (other.length > 0) {
    throw new APIError('BAD_REQUEST', {
      message: `only the display name can be changed here, not ${other.join(', ')}`,
    });
  }
  const { name } = body as { name?: unknown };
  if (typeof name !== 'string') throw new APIError('BAD_REQUEST', { message: 'name must be a string' });
  if (name.trim() !== name) {
    throw new APIError('BAD_REQUEST', { message: 'name must not start or end with spaces' });
  }
  if (name.length > NAME_MAX_LENGTH) {
    throw new APIError('BAD_REQUEST', { message: `name must be at most ${NAME_MAX_LENGTH} characters` });
  }
}
