/**
 * One place whose contents a shell command never sees, whatever the mode: `path` starts with `~/` (under
 * the user's home folder) or `/` (absolute), `/`-separated; it names a folder (hidden with everything under
 * it) or a file. The sandbox hides each one that exists; the window and the docs list them with `why`.
 */
export interface SecretPath {
  path: string;
  why: string;
}

const KEYS = 'login keys and tokens';
const CLOUD = 'cloud and cluster credentials';
const PACKAGES = 'package registry tokens';
const KEYCHAIN = 'a keychain: every saved password';
const BROWSER = 'a browser profile: cookies, saved passwords, sessions';
const HISTORY = 'shell history: commands typed with their secrets';
const SOCKET = 'a socket that grants more than the sandbox does (containers, the desktop session, keyrings)';

/** Hidden from every sandboxed shell command, on Linux and macOS alike (a path that does not exist is skipped). */
export const SECRET_PATHS: readonly SecretPath[] = [
  { path: '~/.ssh', why: KEYS },
  { path: '~/.gnupg', why: KEYS },
  { path: '~/.netrc', why: KEYS },
  { path: '~/.git-credentials', why: KEYS },
  { path: '~/.config/git/credentials', why: KEYS },
  { path: '~/.config/gh', why: KEYS },
  { path: '~/.config/hub', why: KEYS },
  { path: '~/.password-store', why: KEYS },
  { path: '~/.vault-token', why: KEYS },
  { path: '~/.pgpass', why: KEYS },
  { path: '~/.my.cnf', why: KEYS },
  { path: '~/.aws', why: CLOUD },
  { path: '~/.azure', why: CLOUD },
  { path: '~/.config/gcloud', why: CLOUD },
  { path: '~/.kube', why: CLOUD },
  { path: '~/.docker/config.json', why: CLOUD },
  { path: '~/.terraform.d/credentials.tfrc.json', why: CLOUD },
  { path: '~/.npmrc', why: PACKAGES },
  { path: '~/.yarnrc.yml', why: PACKAGES },
  { path: '~/.pypirc', why: PACKAGES },
  { path: '~/.cargo/credentials', why: PACKAGES },
  { path: '~/.cargo/credentials.toml', why: PACKAGES },
  { path: '~/.gem/credentials', why: PACKAGES },
  { path: '~/.local/share/keyrings', why: KEYCHAIN },
  { path: '~/Library/Keychains', why: KEYCHAIN },
  { path: '~/.mozilla', why: BROWSER },
  { path: '~/.config/google-chrome', why: BROWSER },
  { path: '~/.config/chromium', why: BROWSER },
  { path: '~/.config/BraveSoftware', why: BROWSER },
  { path: '~/.config/microsoft-edge', why: BROWSER },
  { path: '~/.config/vivaldi', why: BROWSER },
  { path: '~/.config/opera', why: BROWSER },
  { path: '~/snap/firefox', why: BROWSER },
  { path: '~/snap/chromium', why: BROWSER },
  { path: '~/.var/app/org.mozilla.firefox', why: BROWSER },
  { path: '~/Library/Application Support/Google/Chrome', why: BROWSER },
  { path: '~/Library/Application Support/Chromium', why: BROWSER },
  { path: '~/Library/Application Support/BraveSoftware', why: BROWSER },
  { path: '~/Library/Application Support/Microsoft Edge', why: BROWSER },
  { path: '~/Library/Application Support/Firefox', why: BROWSER },
  { path: '~/Library/Safari', why: BROWSER },
  { path: '~/Library/Cookies', why: BROWSER },
  { path: '~/.bash_history', why: HISTORY },
  { path: '~/.zsh_history', why: HISTORY },
  { path: '~/.zhistory', why: HISTORY },
  { path: '~/.sh_history', why: HISTORY },
  { path: '~/.python_history', why: HISTORY },
  { path: '~/.node_repl_history', why: HISTORY },
  { path: '~/.psql_history', why: HISTORY },
  { path: '~/.mysql_history', why: HISTORY },
  { path: '~/.sqlite_history', why: HISTORY },
  { path: '~/.local/share/fish/fish_history', why: HISTORY },
  { path: '~/.docker/run', why: SOCKET },
  { path: '/run/user', why: SOCKET },
  { path: '/run/docker.sock', why: SOCKET },
  { path: '/var/run/docker.sock', why: SOCKET },
  { path: '/run/podman', why: SOCKET },
  { path: '/run/containerd', why: SOCKET },
  { path: '/run/dbus/system_bus_socket', why: SOCKET },
];
