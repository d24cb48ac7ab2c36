/** Variables a shell command inherits from the plugin's environment, by exact (upper-case) name; and LC_* besides. */
const PASSED = new Set(['PATH', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'TERM', 'TZ']);

/**
 * Marks every process a plugin starts so main can find a stray after its parent is gone (see main's
 * process-tree.ts): a random id, not a secret, kept so that an unsandboxed command's orphans are found too.
 */
const RUN_MARKER = 'AMBER_PLUGIN_RUN';

/**
 * The environment of a shell command: an allow-list of `source` (never a provider key, a token, a proxy
 * with its password, NODE_OPTIONS…), HOME set to `home`, TMPDIR to `tmp`. The same list applies sandboxed
 * or not. Windows keeps the variables its programs cannot start without. The result has no prototype.
 */
export function sandboxEnv(source: NodeJS.ProcessEnv, options: { home: string; tmp: string; platform?: NodeJS.Platform }): NodeJS.ProcessEnv {
  const platform = options.platform ?? process.platform;
  const env = Object.create(null) as NodeJS.ProcessEnv;
  for (const key of Object.keys(source)) {
    const upper = key.toUpperCase();
    const value = source[key];
    if (typeof value !== 'string') continue;
    if (PASSED.has(upper) || upper.startsWith('LC_') || upper === RUN_MARKER || (platform === 'win32' && WINDOWS.has(upper))) env[key] = value;
  }
  env['HOME'] = options.home;
  env['TMPDIR'] = options.tmp;
  return env;
}

/** Without these, programs on Windows misbehave or do not start (none of them holds a secret). */
const WINDOWS = new Set([
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'USERNAME',
  'HOMEDRIVE',
  'HOMEPATH',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'TEMP',
  'TMP',
]);
