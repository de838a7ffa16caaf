import { describe, expect, it } from 'vitest';
import { AppError, GaveWayError } from '../../src/errors.js';
import { errorBody } from '../../src/http/errors.js';

describe('errorBody', () => {
  it('a call the database rolled back is a 409 that says to send it again at once; another conflict is not', () => {
    expect(errorBody(new GaveWayError(new Error('deadlock detected')))).toMatchObject({
      statusCode: 409,
      code: 'conflict',
      retry_after: 0,
    });
    expect(errorBody(new AppError('conflict', "session 'sess_1' already exists"))).not.toHaveProperty('retry_after');
  });
});
