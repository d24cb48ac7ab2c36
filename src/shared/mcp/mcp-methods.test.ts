import { expect, test } from 'vitest';
import { MCP_METHODS, McpSignInPage } from './mcp-methods.ts';

// The sign-in's edge between the MCP plugin and main (and main and the window): what a hostile plugin could
// answer is refused before main acts on it or the window opens it.

test('a sign-in page is only an http or https URL: another scheme, a relative or an oversized one is refused', () => {
  expect(McpSignInPage.safeParse({ url: 'https://auth.example/authorize?x=1' }).success).toBe(true);
  expect(McpSignInPage.safeParse({ url: 'http://127.0.0.1:8080/as/authorize' }).success).toBe(true);
  for (const url of [
    'javascript:alert(1)',
    'data:text/html,<script>1</script>',
    'file:///etc/passwd',
    '/authorize',
    'ftp://h/x',
    `https://h/${'x'.repeat(9000)}`,
  ]) {
    expect(McpSignInPage.safeParse({ url }).success, url.slice(0, 40)).toBe(false);
  }
  expect(MCP_METHODS.signIn.result.safeParse({ url: 'javascript:alert(1)' }).success).toBe(false);
});

const credentialsParse = (servers: unknown) => MCP_METHODS.credentials.result.safeParse({ revision: 1, servers }).success;

test('the credentials main keeps are per server name (never a path or a prototype key) and bounded', () => {
  expect(credentialsParse({ remote: '{"url":"https://h/mcp"}', gone: null })).toBe(true);
  expect(credentialsParse({ 'a.b': 'x' })).toBe(false);
  expect(credentialsParse({ __proto__x: 'x' })).toBe(false);
  expect(credentialsParse({ remote: 'x'.repeat(64 * 1024 + 1) })).toBe(false);
  expect(credentialsParse({ remote: 42 })).toBe(false);
  expect(MCP_METHODS.credentials.result.safeParse({ revision: -1, servers: {} }).success).toBe(false);
});

test('signIn and signOut take a server name and nothing else', () => {
  for (const method of [MCP_METHODS.signIn, MCP_METHODS.signOut]) {
    expect(method.args.safeParse({ server: 'remote' }).success).toBe(true);
    for (const junk of [{}, { server: '../x' }, { server: 'a__b' }, { server: 'remote', url: 'https://evil' }, { server: 1 }])
      expect(method.args.safeParse(junk).success, JSON.stringify(junk)).toBe(false);
  }
});
