import { describe, expect, it } from 'vitest';
import { clientError } from '../../lib/trpc-error.test-helpers';
import { callFailure, connectRefusalOf } from './import-errors';

describe('a refused connection, on its field', () => {
  it('puts a validation issue on the field it names', () => {
    const error = clientError('URL must be an http(s) address', 400, [
      { path: 'url', message: 'URL must be an http(s) address' },
    ]);
    expect(connectRefusalOf(error)).toEqual({ field: 'url', message: 'URL must be an http(s) address' });
  });

  it('puts a refusal with a `field` extra on that field', () => {
    const key = clientError(
      'Shlink refused the API key',
      400,
      undefined,
      { field: 'apiKey' },
      'imports.connect',
    );
    expect(connectRefusalOf(key)).toEqual({ field: 'apiKey', message: 'Shlink refused the API key' });
    const url = clientError('Shlink did not answer: check the address', 400, undefined, { field: 'url' });
    expect(connectRefusalOf(url).field).toBe('url');
  });

  it('says anything else for the whole form', () => {
    expect(connectRefusalOf(clientError('Too many requests', 429))).toEqual({
      field: null,
      message: 'Too many requests',
    });
    const offline = new Error('Failed to fetch', { cause: new TypeError('Failed to fetch') });
    expect(connectRefusalOf(offline)).toEqual({
      field: null,
      message: 'The server could not be reached. Please try again.',
    });
    expect(callFailure(new TypeError('Failed to fetch'), 'x')).toBe(
      'The server could not be reached. Please try again.',
    );
    expect(callFailure('nope', 'The file could not be read.')).toBe('The file could not be read.');
  });
});
