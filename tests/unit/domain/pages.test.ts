import { describe, expect, it } from 'vitest';
import { isSpecObject, SPEC_PROBLEMS_SHOWN, specProblems } from '../../../src/domain/pages.js';

describe('spec problems', () => {
  it("keeps each message's first line, without the parser's code frame", () => {
    const framed = "REQUIRED must have required property 'info'\n\n> 1 | {\n    | ^ info is missing here!";
    expect(specProblems([framed])).toEqual(["REQUIRED must have required property 'info'"]);
    expect(specProblems(['  Nested mappings are not allowed at line 1, column 10:\n\nfoo: a: b\n'])).toEqual([
      'Nested mappings are not allowed at line 1, column 10:',
    ]);
  });

  it('says which key the code frame points at, when it points at one', () => {
    const type =
      'TYPE must be object\n\n  3 |   "paths": {\n> 4 |     "/entries": []\n    |      ^ type must be object';
    const version =
      'REQUIRED must have required property \'version\'\n\n> 3 |   "info": {\n    |    ^ version is missing';
    const root =
      'REQUIRED must have required property \'info\'\n\n> 1 | {\n    | ^ info is missing here!\n  2 |   "openapi": 1';
    expect(specProblems([type, version, root])).toEqual([
      'TYPE must be object (at "/entries")',
      'REQUIRED must have required property \'version\' (at "info")',
      "REQUIRED must have required property 'info'",
    ]);
  });

  it('names the first few and counts the rest, with those the validator did not list', () => {
    const five = ['one', 'two', 'three', 'four', 'five'];
    expect(SPEC_PROBLEMS_SHOWN).toBe(3);
    expect(specProblems(five)).toEqual(['one', 'two', 'three', '…and 2 more problems']);
    expect(specProblems(five.slice(0, 4))).toEqual(['one', 'two', 'three', '…and 1 more problem']);
    expect(specProblems(five.slice(0, 3))).toEqual(['one', 'two', 'three']);
    expect(specProblems(['one'], 4)).toEqual(['one', '…and 4 more problems']);
    expect(specProblems(five, 0, 1)).toEqual(['one', '…and 4 more problems']);
  });

  it('drops empty messages', () => {
    expect(specProblems(['', '  \n', 'real'])).toEqual(['real']);
    expect(specProblems([])).toEqual([]);
  });
});

describe('spec objects', () => {
  it('is an object: not a list, a string, a number or nothing', () => {
    expect(isSpecObject({ openapi: '3.1.0' })).toBe(true);
    expect(isSpecObject({})).toBe(true);
    for (const value of [null, undefined, 'openapi: 3.1.0', 3, true, [], [{ openapi: '3.1.0' }]])
      expect(isSpecObject(value)).toBe(false);
  });
});
