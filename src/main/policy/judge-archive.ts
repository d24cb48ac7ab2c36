import { join } from 'node:path';
import { has, isOption, optionValues, positional, type ShellArg, type ShellJudge, word } from './shell-args.ts';

/**
 * tar's options, by how many words each takes (`1`: a value, also attached: `-fa.tar`, `--file=a.tar`).
 * Options missing here make the line unknown: tar has several that run programs (`--to-command`,
 * `--checkpoint-action`, `-I`, `--rsh-command`, `-F`) and new ones may come.
 */
const TAR_SHORT: Record<string, 0 | 1> = {
  c: 0,
  x: 0,
  t: 0,
  r: 0,
  u: 0,
  A: 0,
  d: 0,
  f: 1,
  z: 0,
  j: 0,
  J: 0,
  Z: 0,
  a: 0,
  v: 0,
  C: 1,
  p: 0,
  k: 0,
  m: 0,
  o: 0,
  O: 0,
  h: 0,
  S: 0,
  W: 0,
  b: 1,
  T: 1,
  X: 1,
  g: 1,
  G: 0,
  M: 0,
  n: 0,
  s: 0,
  U: 0,
  B: 0,
  N: 1,
  L: 1,
  V: 1,
  H: 1,
  i: 0,
  l: 0,
  w: 0,
};
const TAR_LONG = new Set(
  (
    'file directory extract get create list append update diff compare delete gzip gunzip ungzip bzip2 xz lzma lzip lzop zstd ' +
    'auto-compress no-auto-compress verbose exclude exclude-from exclude-vcs exclude-vcs-ignores exclude-backups exclude-caches ' +
    'exclude-caches-all exclude-caches-under exclude-tag exclude-tag-all exclude-tag-under strip-components transform xform owner group ' +
    'mode mtime numeric-owner preserve-permissions same-permissions no-same-owner no-same-permissions keep-old-files skip-old-files ' +
    'overwrite overwrite-dir no-overwrite-dir keep-newer-files keep-directory-symlink touch wildcards no-wildcards anchored no-anchored ' +
    'ignore-case no-ignore-case sort format totals show-transformed-names recursion no-recursion one-file-system files-from null ' +
    'no-null verbatim-files-from no-verbatim-files-from dereference hard-dereference sparse force-local warning checkpoint ' +
    'record-size blocking-factor label to-stdout occurrence remove-files unlink-first recursive-unlink atime-preserve acls no-acls ' +
    'xattrs no-xattrs selinux no-selinux posix listed-incremental incremental level index-file check-links quoting-style quote-chars ' +
    'utc full-time block-number ignore-failed-read ignore-zeros delay-directory-restore no-delay-directory-restore restrict help ' +
    'version usage show-defaults verify pax-option no-unquote unquote preserve-order same-order same-owner backup suffix'
  ).split(' '),
);
const TAR_LONG_VALUES = new Set('file directory exclude exclude-from files-from label index-file listed-incremental'.split(' '));

/** Judges tar, zip, unzip and the single-file compressors by what they read and write. */
export function judgeArchive(judge: ShellJudge, name: string, args: readonly ShellArg[]): void {
  if (name === 'tar') return tar(judge, args);
  if (name === 'zip') {
    if (args.some((a) => a.value === '-TT' || a.value?.startsWith('--unzip-command')))
      return judge.note('unknown', 'zip -TT runs another program to test the archive.');
    const [archive, ...files] = positional(args);
    if (archive) judge.arg(archive, 'write');
    for (const f of files) judge.arg(f, 'read');
    for (const o of optionValues(args, 'O', '--output-file')) judge.arg(o, 'write');
    return judge.note('write', 'zip writes an archive.');
  }
  if (name === 'unzip') {
    const [archive, ...members] = positional(args).filter((a) => !optionValues(args, 'dxP').includes(a));
    if (archive) judge.arg(archive, 'read');
    if (has(args, 'ltvZpc')) return;
    const into = optionValues(args, 'd')[0];
    if (into) judge.arg(into, 'write');
    for (const m of members) judge.arg(into?.value && m.value ? word(join(into.value, m.value)) : m, 'write');
    return judge.note('write', 'unzip writes the archive’s files into the workspace.');
  }
  // gzip and friends: each file is replaced by its (de)compressed twin, unless the output goes to stdout.
  const files = positional(args);
  for (const f of files) judge.arg(f, has(args, 'ctl', '--stdout', '--to-stdout', '--test', '--list') ? 'read' : 'write');
  if (has(args, 'ctl', '--stdout', '--to-stdout', '--test', '--list')) return;
  const decompress = name.startsWith('un') || name === 'gunzip' || has(args, 'd', '--decompress', '--uncompress');
  for (const f of decompress ? files : []) {
    const twin = f.value?.replace(/\.(gz|tgz|z|xz|txz|bz2|tbz2?|zst|lzma)$/i, (ext) => (/^\.t/i.test(ext) ? '.tar' : ''));
    if (twin && twin !== f.value) judge.path(twin, 'write');
  }
  judge.note('write', `${name} replaces files with their ${decompress ? 'unpacked' : 'packed'} versions.`);
}

function tar(judge: ShellJudge, raw: readonly ShellArg[]): void {
  // Old style: `tar xzf a.tar` is `tar -x -z -f a.tar`.
  const args = raw[0]?.value && /^[A-Za-z]+$/.test(raw[0].value) ? [word(`-${raw[0].value}`), ...raw.slice(1)] : raw;
  const modes = new Set<string>();
  const archives: ShellArg[] = [];
  const reads: ShellArg[] = [];
  const writesIndex: ShellArg[] = [];
  let into: ShellArg | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const v = a.value;
    if (v === null || !isOption(a)) continue;
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const key = v.slice(2, eq < 0 ? undefined : eq);
      if (!TAR_LONG.has(key)) return judge.note('unknown', `tar --${key} is not an option Amber knows how to judge (some tar options run programs).`);
      const value = TAR_LONG_VALUES.has(key) ? (eq >= 0 ? word(v.slice(eq + 1)) : args[++i]) : undefined;
      if (['extract', 'get', 'create', 'list', 'append', 'update', 'diff', 'compare', 'delete'].includes(key))
        modes.add(key[0] === 'g' ? 'x' : key === 'compare' ? 'd' : key === 'delete' ? 'D' : key[0] === 'l' ? 't' : key === 'append' ? 'r' : key[0]!);
      if (!value) continue;
      if (key === 'file') archives.push(value);
      else if (key === 'directory') into = value;
      else if (key === 'index-file' || key === 'listed-incremental') writesIndex.push(value);
      else reads.push(value);
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const c = v[j]!;
      const takes = TAR_SHORT[c];
      if (takes === undefined) return judge.note('unknown', `tar -${c} is not an option Amber knows how to judge (some tar options run programs).`);
      if ('cxtruAd'.includes(c)) modes.add(c);
      if (takes === 0) continue;
      const value = j + 1 < v.length ? word(v.slice(j + 1)) : args[++i];
      if (value) {
        if (c === 'f') archives.push(value);
        else if (c === 'C') into = value;
        else if (c === 'g') writesIndex.push(value);
        else if (c === 'T' || c === 'X') reads.push(value);
      }
      break;
    }
  }
  if (archives.some((a) => a.value !== null && /^[^/]*[^/\\]:/.test(a.value)) && !has(args, '', '--force-local')) {
    judge.noAlways('It sends data over the network, so an “always” answer is never kept for it.');
    return judge.note('unknown', 'tar names an archive on another machine, which it reaches by running a remote shell.');
  }
  // Writing the archive to the output (`-f -`) changes no file.
  const creating = ['c', 'r', 'u', 'A', 'D'].some((m) => modes.has(m)) && archives.some((a) => a.value !== '-');
  const extracting = modes.has('x') && !has(args, 'O', '--to-stdout');
  for (const a of archives) if (a.value !== '-') judge.arg(a, creating ? 'write' : 'read');
  for (const a of reads) judge.arg(a, 'read');
  for (const a of writesIndex) judge.arg(a, 'write');
  if (into) judge.arg(into, extracting ? 'write' : 'read');
  const members = positional(args).filter((a) => !archives.includes(a) && !reads.includes(a) && !writesIndex.includes(a) && a !== into);
  // Members are named from the -C folder, when there is one.
  for (const m of members) judge.arg(into?.value && m.value && !m.value.startsWith('/') ? word(join(into.value, m.value)) : m, extracting ? 'write' : 'read');
  if (creating || extracting) return judge.note('write', extracting ? 'tar unpacks files into the workspace.' : 'tar writes an archive.');
}
