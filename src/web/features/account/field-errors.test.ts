import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api.ts';
import { fieldErrorsFrom } from './field-errors.ts';

describe('fieldErrorsFrom (server messages next to their fields)', () => {
  const known = ['name', 'phone_number', 'address'];

  it('splits the validation answer by field and keeps the rest for the form', () => {
    const err = new ApiError(
      400,
      'BAD_REQUEST',
      'Invalid body. phone_number: Please enter a valid phone number with 5 to 11 digits.; name: Too long; body: Unrecognized key "role"',
    );
    expect(fieldErrorsFrom(err, known)).toEqual({
      fields: { phone_number: 'Please enter a valid phone number with 5 to 11 digits.', name: 'Too long' },
      form: 'body: Unrecognized key "role"',
    });
  });

  it('any other failure is one sentence for the form', () => {
    expect(fieldErrorsFrom(new ApiError(429, 'RATE_LIMITED', 'Too many requests.'), known)).toEqual({
      fields: {},
      form: 'Too many requests.',
    });
    expect(fieldErrorsFrom(new Error('x'), known).form).toBe('Something went wrong. Please try again.');
  });
});
