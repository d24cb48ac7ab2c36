import { has, isOption, optionValues, positional, type ShellArg, type ShellJudge, values } from './shell-args.ts';

/*
 * How network commands are judged. None is read-only: every request can carry data out, in its address
 * or the names it looks up, and read mode runs only what cannot. The classes follow what each sends:
 *
 * - 'write': fetching without a body (a GET, a download, a DNS lookup, ping). Write mode runs writes freely,
 *   and the sandbox keeps the network off in write mode unless the user turned it on, so a plain download
 *   runs only where the user allowed the network; then it is as safe as the other writes inside the workspace.
 * - 'unknown', never kept by "always": anything that sends data (a request body, an upload, a form), opens a
 *   raw connection or a listener (nc, socat, telnet), or logs in elsewhere (ssh, scp, sftp, rsync to a host).
 *   What leaves cannot be judged from the line, so the user is asked in every mode.
 * - 'destructive' stays for what publishes (`git push`, `npm publish`), judged where those commands are.
 */

const SENDS = 'It sends data over the network, so an “always” answer is never kept for it.';
/** Programs that open connections, listeners or remote logins: what they send cannot be judged. */
const CONNECTORS: Record<string, string> = {
  nc: 'nc opens raw network connections or listens for them.',
  ncat: 'ncat opens raw network connections or listens for them.',
  netcat: 'netcat opens raw network connections or listens for them.',
  socat: 'socat opens network connections and relays data through them.',
  telnet: 'telnet opens network connections.',
  ftp: 'ftp sends and fetches files over the network.',
  tftp: 'tftp sends and fetches files over the network.',
  lftp: 'lftp sends and fetches files over the network.',
  ssh: 'ssh runs commands on another machine.',
  scp: 'scp copies files to or from another machine.',
  sftp: 'sftp copies files to or from another machine.',
  sshpass: 'sshpass logs in to another machine.',
  autossh: 'autossh runs commands on another machine.',
  mosh: 'mosh runs commands on another machine.',
  rsh: 'rsh runs commands on another machine.',
  rcp: 'rcp copies files to or from another machine.',
  rlogin: 'rlogin logs in to another machine.',
  openssl: 'openssl can open network connections and handle keys.',
};
/** Lookups and probes: no body, but the names and addresses asked can carry data out (DNS tunnelling). */
const LOOKUPS = new Set('dig nslookup host whois drill kdig ping ping6 traceroute traceroute6 tracepath mtr'.split(' '));

/** Whether `name` is judged here. */
export function isNetworkCommand(name: string): boolean {
  return name in CONNECTORS || LOOKUPS.has(name) || name === 'curl' || name === 'wget' || name === 'rsync';
}

/** Judges a command that talks to the network (see the comment above for the classes). */
export function judgeNetwork(judge: ShellJudge, name: string, args: readonly ShellArg[]): void {
  if (name in CONNECTORS) {
    for (const a of args) judge.arg(a, 'read');
    judge.noAlways(SENDS);
    return judge.note('unknown', CONNECTORS[name]!);
  }
  if (LOOKUPS.has(name)) {
    if (args.some((a) => a.value === null)) return sends(judge, `${name} looks up a name made at run time, which can carry data out.`);
    return judge.note('write', `${name} asks the network; the names it looks up can carry data out.`);
  }
  if (name === 'rsync') return rsync(judge, args);
  return name === 'curl' ? curl(judge, args) : wget(judge, args);
}

function sends(judge: ShellJudge, reason: string): void {
  judge.noAlways(SENDS);
  judge.note('unknown', reason);
}

/** Where a download lands when it is named after the URL (`curl -O`, plain `wget`): the URL's last part. */
function remoteName(url: string): string | null {
  const path = url.replace(/^[a-z]+:\/\/[^/]*/i, '').replace(/[?#].*$/, '');
  const last = path
    .split('/')
    .filter((p) => p !== '')
    .at(-1);
  return last ?? null;
}

function checkUrls(judge: ShellJudge, args: readonly ShellArg[]): void {
  for (const a of positional(args)) {
    if (a.value === null) {
      judge.arg(a, 'read');
      continue;
    }
    if (/^file:/i.test(a.value)) judge.path(a.value.replace(/^file:(\/\/)?/i, ''), 'read');
  }
}

function curl(judge: ShellJudge, args: readonly ShellArg[]): void {
  if (has(args, 'K', '--config')) return sends(judge, 'curl reads its options from a file, which cannot be judged.');
  checkUrls(judge, args);
  const urls = positional(args).filter((a) => a.value !== null && /^[a-z][a-z0-9+.-]*:/i.test(a.value));
  const local = urls.length > 0 && urls.every((a) => /^file:/i.test(a.value!));
  // What a request would send from files: `-d @file`, `-T file`, `-F name=@file` (or `<file`).
  for (const a of optionValues(args, 'd', '--data', '--data-binary', '--data-ascii', '--data-urlencode', '--json')) {
    const file = a.value === null ? null : /^[\w.-]*@(.+)$/s.exec(a.value);
    if (a.value === null) judge.arg(a, 'read');
    else if (file) judge.path(file[1]!, 'read');
  }
  for (const a of optionValues(args, 'T', '--upload-file')) judge.arg(a, 'read');
  for (const a of optionValues(args, 'F', '--form')) {
    const m = a.value === null ? null : /=[@<]([^;]*)/.exec(a.value);
    if (a.value === null) judge.arg(a, 'read');
    else if (m) judge.path(m[1]!, 'read');
  }
  for (const a of optionValues(args, 'bE', '--cookie', '--cert', '--key', '--cacert', '--netrc-file', '--unix-socket', '--abstract-unix-socket'))
    judge.arg(a, 'read');
  if (has(args, 'dFT', '--data', '--data-raw', '--data-binary', '--data-ascii', '--data-urlencode', '--json', '--form', '--form-string', '--upload-file')) {
    return sends(judge, 'curl sends data to a server.');
  }
  const method = optionValues(args, 'X', '--request')[0];
  if (method && !['GET', 'HEAD'].includes((method.value ?? '').toUpperCase())) return sends(judge, `curl sends a ${method.raw} request to a server.`);
  const outputs = optionValues(
    args,
    'oDc',
    '--output',
    '--dump-header',
    '--cookie-jar',
    '--trace',
    '--trace-ascii',
    '--stderr',
    '--libcurl',
    '--etag-save',
    '--hsts',
    '--alt-svc',
  );
  for (const a of outputs) judge.arg(a, 'write');
  const dir = optionValues(args, '', '--output-dir')[0]?.value ?? '.';
  if (has(args, 'O', '--remote-name', '--remote-name-all')) {
    for (const url of positional(args)) {
      const file = url.value === null ? null : remoteName(url.value);
      if (file) judge.path(`${dir}/${file}`, 'write');
    }
  }
  if (outputs.length > 0 || has(args, 'O', '--remote-name', '--remote-name-all')) {
    judge.noAlways('It names an output file, so an “always” answer is never kept for it.');
    return judge.note('write', 'curl downloads from the network into a file.');
  }
  if (!local) judge.note('write', 'curl fetches from the network; its address can carry data out.');
}

function wget(judge: ShellJudge, args: readonly ShellArg[]): void {
  const vals = values(args);
  if (has(args, 'e', '--execute', '--config', '--use-askpass')) return sends(judge, 'wget reads commands or options from elsewhere, which cannot be judged.');
  checkUrls(judge, args);
  if (has(args, '', '--post-data', '--post-file', '--body-data', '--body-file')) return sends(judge, 'wget sends data to a server.');
  const method = optionValues(args, '', '--method')[0];
  if (method && !['GET', 'HEAD'].includes((method.value ?? '').toUpperCase())) return sends(judge, `wget sends a ${method.raw} request to a server.`);
  for (const a of optionValues(args, 'i', '--input-file', '--load-cookies', '--certificate', '--private-key', '--ca-certificate')) judge.arg(a, 'read');
  const toStdout =
    vals.some((v, i) => (v === '-O' || v === '-qO' || v === '--output-document') && vals[i + 1] === '-') ||
    vals.some((v) => /^-q?O-$/.test(v) || v === '--output-document=-');
  const outputs = optionValues(args, 'Ooa', '--output-document', '--output-file', '--append-output', '--save-cookies', '--warc-file').filter(
    (a) => a.value !== '-',
  );
  for (const a of outputs) judge.arg(a, 'write');
  const dir = optionValues(args, 'P', '--directory-prefix')[0];
  if (dir) judge.arg(dir, 'write');
  if (has(args, 'rm', '--recursive', '--mirror')) return judge.note('write', 'wget downloads many files from the network into the workspace.');
  if (!toStdout && outputs.length === 0 && !has(args, '', '--spider')) {
    for (const url of positional(args)) {
      const file = url.value === null ? null : remoteName(url.value);
      if (file) judge.path(`${dir?.value ?? '.'}/${file}`, 'write');
    }
  }
  if (outputs.length > 0) judge.noAlways('It names an output file, so an “always” answer is never kept for it.');
  judge.note('write', toStdout ? 'wget fetches from the network; its address can carry data out.' : 'wget downloads from the network into a file.');
}

/** `host:path`, `user@host:path` or `rsync://`: a copy to or from another machine. */
const REMOTE = /^([^/]*[^/\\]:|rsync:\/\/)/;

function rsync(judge: ShellJudge, args: readonly ShellArg[]): void {
  if (has(args, 'e', '--rsh', '--rsync-path')) return sends(judge, 'rsync is told which program to run for the copy, which cannot be judged.');
  const places = positional(args);
  if (places.some((a) => a.value === null || REMOTE.test(a.value))) {
    for (const a of places) if (a.value !== null && !REMOTE.test(a.value)) judge.path(a.value, 'read');
    return sends(judge, 'rsync copies to or from another machine.');
  }
  places.forEach((a, i) => judge.arg(a, i === places.length - 1 && places.length > 1 ? 'write' : 'read'));
  for (const a of args) if (isOption(a) && a.value?.includes('=')) judge.path(a.value, 'read');
  if (has(args, '', '--delete', '--remove-source-files', '--delete-after', '--delete-before', '--delete-during', '--delete-excluded'))
    return judge.note('destructive', 'rsync --delete removes files.');
  judge.note('write', 'rsync copies files in the workspace.');
}
