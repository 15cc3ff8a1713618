/**
 * jsonSyntaxProblem (src/file-errors.ts) says where a file's JSON breaks without quoting the file: the position
 * forms JSON.parse's message takes across the supported Node versions (Node 20 quotes the text and gives no
 * position; Node 22 and later give the position with its line and column; V8 before 11 the position alone).
 */
import { describe, expect, it } from 'vitest';
import { jsonSyntaxProblem } from '../src/file-errors.js';

describe('jsonSyntaxProblem', () => {
  it('a message with line and column: the line and column, never the text around the error', () => {
    const e = new SyntaxError(`Expected ',' or '}' after property value in JSON at position 17 (line 2 column 9)`);
    expect(jsonSyntaxProblem(e)).toBe('a syntax error at line 2, column 9');
  });

  it('a message with a position alone: the character', () => {
    expect(jsonSyntaxProblem(new SyntaxError('Unexpected token s in JSON at position 4'))).toBe(
      'a syntax error at character 4',
    );
  });

  it("this Node's own messages: never the file's text (a secret in a .env stays unsaid)", () => {
    for (const text of ['SECRET=sk_live_abc123\n', '{"a": 1,, "b": "sk_live_abc123"}']) {
      let thrown: unknown;
      try {
        JSON.parse(text);
      } catch (e) {
        thrown = e;
      }
      const said = jsonSyntaxProblem(thrown);
      expect(said).toMatch(/^a syntax error( at (line \d+, column \d+|character \d+))?$/);
      expect(said).not.toContain('sk_live');
    }
  });

  it('not an Error: a syntax error, nothing more', () => {
    expect(jsonSyntaxProblem('at position 3 (line 1 column 4)')).toBe('a syntax error');
    expect(jsonSyntaxProblem(undefined)).toBe('a syntax error');
  });
});
