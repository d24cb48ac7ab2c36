import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from 'vitest';
import { refusedStatus } from './mcp-connection.ts';

test("a 401 or 403 from either HTTP transport, or the SDK's UnauthorizedError, even as a cause, is a refusal", () => {
  expect(refusedStatus(new UnauthorizedError('No auth provider'))).toBe(401);
  expect(refusedStatus(new StreamableHTTPError(401, 'Error POSTing to endpoint'))).toBe(401);
  expect(refusedStatus(new StreamableHTTPError(403, 'Error POSTing to endpoint'))).toBe(403);
  expect(refusedStatus(new SseError(401, 'Non-200 status code', {} as ConstructorParameters<typeof SseError>[2]))).toBe(401);
  expect(refusedStatus(new Error('wrapped', { cause: new StreamableHTTPError(403, 'x') }))).toBe(403);
});

test('other failures are not a refusal', () => {
  expect(refusedStatus(new StreamableHTTPError(404, 'Not Found'))).toBeNull();
  expect(refusedStatus(new StreamableHTTPError(500, 'boom'))).toBeNull();
  expect(refusedStatus(new Error('fetch failed'))).toBeNull();
  expect(refusedStatus('401')).toBeNull();
});
