import { describe, expect, test } from 'vitest';
import { ToolDeclaration } from '../plugins/index.ts';
import { ToolSpec } from './tool-spec.ts';

const parameters = { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } };

describe('tool spec path parameters', () => {
  test('pathParams naming declared parameters are kept, on a spec and on a plugin declaration', () => {
    const spec = { name: 'write', description: 'write', parameters, readOnly: false, pathParams: ['path'] };
    expect(ToolSpec.parse(spec).pathParams).toEqual(['path']);
    expect(ToolDeclaration.parse({ kind: 'tool', ...spec }).pathParams).toEqual(['path']);
    expect(ToolSpec.parse({ ...spec, pathParams: undefined }).pathParams).toBeUndefined();
  });

  test('pathParams naming a parameter the schema does not declare are refused, also from a plugin', () => {
    const bad = { name: 'write', description: 'write', parameters, readOnly: false, pathParams: ['target'] };
    expect(ToolSpec.safeParse(bad).error?.issues[0]).toMatchObject({ path: ['pathParams'], message: expect.stringMatching(/target.*does not declare/) });
    expect(ToolDeclaration.safeParse({ kind: 'tool', ...bad }).success).toBe(false);
    expect(ToolSpec.safeParse({ ...bad, parameters: {}, pathParams: ['path'] }).success).toBe(false);
    expect(ToolSpec.safeParse({ ...bad, pathParams: ['path', 'path'] }).success).toBe(false);
    expect(ToolSpec.safeParse({ ...bad, pathParams: 'path' }).success).toBe(false);
  });
});

describe('tool spec parallel flag', () => {
  test('parallel: false crosses the plugin edge as declared; a flag that is not a boolean is refused', () => {
    const spec = { name: 'bash', description: 'run', parameters, readOnly: false, parallel: false };
    expect(ToolDeclaration.parse({ kind: 'tool', ...spec }).parallel).toBe(false);
    expect(ToolSpec.parse({ ...spec, parallel: undefined }).parallel).toBeUndefined();
    expect(ToolDeclaration.safeParse({ kind: 'tool', ...spec, parallel: 'no' }).success).toBe(false);
    expect(ToolSpec.safeParse({ ...spec, parallel: 0 }).success).toBe(false);
  });
});
