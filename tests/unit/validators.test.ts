import { describe, expect, it } from 'vitest';
import {
  isBetaCode,
  isDomain,
  isEmail,
  isHandle,
  isRequired,
  isReservedDomain,
  isStrongPassword,
  slugify,
} from '../../src/domain/validators.js';

describe('isHandle', () => {
  it.each(['abc', 'a-b-c', 'team-42', '123', 'ABC'])('accepts %s', (value) => expect(isHandle(value)).toBe(true));
  it.each(['ab', '-abc', 'abc-', 'a--b', 'a b c', 'abc_d', 'ab!', ''])('refuses %j', (value) =>
    expect(isHandle(value)).toBe(false),
  );
});

describe('isStrongPassword (the stricter reading: 8+ with lower, upper, digit, special)', () => {
  it.each(['Str0ng-pass', 'Aa1#aaaa', 'xY9?xY9?'])('accepts %s', (value) => expect(isStrongPassword(value)).toBe(true));
  it.each([
    ['too short', 'Aa1#aaa'],
    ['no upper', 'str0ng-pass'],
    ['no lower', 'STR0NG-PASS'],
    ['no digit', 'Strong-pass'],
    ['no special', 'Str0ngpass'],
    ['special not in the list', 'Str0ng_pass'],
  ])('refuses %s', (_why, value) => expect(isStrongPassword(value)).toBe(false));
});

describe('isEmail', () => {
  it.each(['a@b.co', 'first.last+tag@sub.example.org'])('accepts %s', (value) => expect(isEmail(value)).toBe(true));
  it.each(['a@b', 'a b@c.de', '@b.co', 'a@', 'plain'])('refuses %s', (value) => expect(isEmail(value)).toBe(false));
});

describe('isDomain', () => {
  it('needs 3+ lowercase handle characters', () => {
    expect(isDomain('acme')).toBe(true);
    expect(isDomain('my-co')).toBe(true);
    expect(isDomain('ab')).toBe(false);
    expect(isDomain('Acme')).toBe(false);
    expect(isDomain('ac.me')).toBe(false);
  });
  it('knows the reserved labels', () => {
    expect(isReservedDomain('www')).toBe(true);
    expect(isReservedDomain('acme')).toBe(false);
  });
});

describe('slugify', () => {
  it.each([
    ['Payments API', 'payments-api'],
    ['  Hello,   World!  ', 'hello-world'],
    ['a--b__c', 'a-b-c'],
    ['Ünïcode Näme', 'ncode-nme'],
    ['---', ''],
  ])('%j -> %j', (input, expected) => expect(slugify(input)).toBe(expected));

  it('makes a valid handle from any name with enough word characters', () => {
    expect(isHandle(slugify('Platform Team 2'))).toBe(true);
  });
});

describe('small rules', () => {
  it('isRequired and isBetaCode', () => {
    expect(isRequired('  ')).toBe(false);
    expect(isRequired('x')).toBe(true);
    expect(isRequired(undefined)).toBe(false);
    expect(isBetaCode('ABCDEF')).toBe(true);
    expect(isBetaCode('ABCDE')).toBe(false);
  });
});
