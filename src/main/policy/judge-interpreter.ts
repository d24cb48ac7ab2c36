import { sedScriptRisk } from './sed-script-risk.ts';
import { has, isOption, optionValues, positional, type ShellArg, type ShellJudge } from './shell-args.ts';

export const SHELLS = new Set('sh bash zsh dash ksh mksh fish ash busybox'.split(' '));
const AWKS = new Set('awk gawk mawk nawk'.split(' '));
/** Programs that run code they are given: "always" is never kept for them, and xargs may not feed them. */
export const INTERPRETERS = new Set([
  ...SHELLS,
  ...AWKS,
  'python',
  'python2',
  'python3',
  'pypy',
  'pypy3',
  'node',
  'nodejs',
  'deno',
  'bun',
  'tsx',
  'ts-node',
  'perl',
  'ruby',
  'php',
  'lua',
  'luajit',
  'Rscript',
  'julia',
]);

const NO_ALWAYS = 'An interpreter runs whatever code it is given, so an “always” answer is never kept for it.';
/** Python modules that serve or fetch over the network, or install: `python -m http.server` is a listener. */
const PYTHON_NETWORK_MODULES = new Set(
  'http.server SimpleHTTPServer CGIHTTPServer smtpd smtplib ftplib telnetlib xmlrpc.server pydoc webbrowser ensurepip asyncio socketserver wsgiref.simple_server'.split(
    ' ',
  ),
);
/** Options of each interpreter that neither run inline code nor load other code. */
const SAFE_OPTIONS: Record<string, RegExp> = {
  node: /^(--test|--check|-c|--enable-source-maps|--no-warnings|--no-deprecation|--trace-warnings|--trace-uncaught|--experimental-strip-types|--experimental-vm-modules|--experimental-specifier-resolution=node|--max-old-space-size=\d+|--stack-size=\d+|--test-reporter=[\w-]+|--test-name-pattern=.*|--test-only|--watch)$/,
  python: /^-[uBOqsIEv]+$|^-OO$|^-W.*$|^-X.*$/,
  perl: /^-[wWXTtc]+$/,
  ruby: /^-[wWc]+$|^--disable[=-].*$/,
  php: /^-[lf]$/,
};

/** Judges a program that runs code: a shell, a scripting language, awk or sed. */
export function judgeInterpreter(judge: ShellJudge, name: string, args: readonly ShellArg[], depth: number): void {
  if (AWKS.has(name)) return awk(judge, name, args);
  if (name === 'sed') return sed(judge, args);
  if (args.length === 1 && /^(-v|-V|--version|-h|--help|-version)$/.test(args[0]!.value ?? '')) return;
  judge.noAlways(NO_ALWAYS);
  if (SHELLS.has(name)) return shell(judge, name, args, depth);
  if (args.length === 0 || (args.length === 1 && args[0]!.value === '-'))
    return judge.note('unknown', `${name} runs code from its input, which cannot be judged.`);
  const family = /^python|^pypy/.test(name) ? 'python' : name === 'nodejs' ? 'node' : name;
  if (family === 'deno') return deno(judge, args);
  if (family === 'tsx' || family === 'ts-node') {
    if (has(args, 'ep', '--eval', '--print', '--require', '--import')) return judge.note('unknown', `${name} runs inline code, which cannot be judged.`);
    return script(judge, name, args, 0);
  }
  // Options up to the script: each must be one that neither runs inline code nor loads other code.
  let i = 0;
  for (; i < args.length && isOption(args[i]!); i++) {
    const v = args[i]!.value!;
    if (v === '--') {
      i++;
      break;
    }
    if (family === 'python' && v === '-m') return pythonModule(judge, name, args.slice(i + 1));
    if (family === 'python' && (v === '-W' || v === '-X')) {
      i++;
      continue;
    }
    if (SAFE_OPTIONS[family]?.test(v)) continue;
    if (family === 'php' && v === '-f') continue;
    return judge.note(
      'unknown',
      /^-(e|E|c|p|r|-eval|-print|-require|-import)$/.test(v)
        ? `${name} ${v} runs inline code, which cannot be judged.`
        : `${name} ${v} can run or load other code, which cannot be judged.`,
    );
  }
  if (args[i] === undefined) return judge.note('unknown', `${name} runs code from its input, which cannot be judged.`);
  return script(judge, name, args, i);
}

/** `node build.js`: runs a program file of the workspace, like `make` runs its Makefile. */
function script(judge: ShellJudge, name: string, args: readonly ShellArg[], at: number): void {
  const file = args[at];
  if (!file) return judge.note('unknown', `${name} runs code from its input, which cannot be judged.`);
  if (file.value === null) return judge.note('unknown', `${name} runs a program named only at run time.`);
  judge.arg(file, 'read');
  judge.note('write', `${name} runs the program ${file.value} in the workspace.`);
}

function pythonModule(judge: ShellJudge, name: string, rest: readonly ShellArg[]): void {
  const mod = rest[0]?.value;
  if (mod === undefined || mod === null) return judge.note('unknown', `${name} -m runs a module named only at run time.`);
  if (PYTHON_NETWORK_MODULES.has(mod)) return judge.note('unknown', `${name} -m ${mod} serves or fetches over the network, which cannot be judged.`);
  if (mod === 'pip') {
    const sub = positional(rest.slice(1))[0]?.value ?? '';
    if (['list', 'show', 'freeze', 'check', 'help', ''].includes(sub)) return;
    return judge.note('write', `${name} -m pip ${sub} changes installed packages, downloading them from the network.`);
  }
  judge.note('write', `${name} -m ${mod} runs a module in the workspace.`);
}

function deno(judge: ShellJudge, args: readonly ShellArg[]): void {
  const sub = positional(args)[0]?.value ?? '';
  if (['eval', 'repl', 'jupyter', ''].includes(sub) || has(args, 'e', '--eval'))
    return judge.note('unknown', `deno ${sub || 'without a script'} runs inline code, which cannot be judged.`);
  if (['install', 'uninstall', 'upgrade', 'serve'].includes(sub))
    return judge.note('unknown', `deno ${sub} changes programs outside the workspace or serves over the network.`);
  judge.note('write', `deno ${sub} runs code of the workspace.`);
}

function shell(judge: ShellJudge, name: string, args: readonly ShellArg[], depth: number): void {
  if (name === 'busybox') return judge.note('unknown', 'busybox runs one of many programs, which cannot be judged.');
  let i = 0;
  for (; i < args.length && args[i]!.value !== null && /^[-+]/.test(args[i]!.value!); i++) {
    const v = args[i]!.value!;
    if (v === '--') {
      i++;
      break;
    }
    if (/^-[a-z]*c[a-z]*$/.test(v)) {
      const text = args[i + 1];
      if (!text || text.value === null) return judge.note('unknown', `${name} -c runs text known only at run time.`);
      if (/[is]/.test(v)) return judge.note('unknown', `${name} ${v} reads start-up files or its input, which cannot be judged.`);
      return judge.line(text.value, depth + 1);
    }
    if (v === '--version' || v === '--help') return;
    if (v === '-o' || v === '+o' || v === '-O' || v === '+O') {
      i++;
      continue;
    }
    if (/^[-+][euxvfnlEBhHTPCa]+$/.test(v) || v === '--norc' || v === '--noprofile' || v === '--posix') continue;
    return judge.note('unknown', `${name} ${v} changes what the shell runs, which cannot be judged.`);
  }
  const file = args[i];
  judge.note(
    'unknown',
    file ? `${name} runs the script ${file.raw}, which cannot be judged.` : `${name} runs commands from its input, which cannot be judged.`,
  );
}

/** Why an awk program cannot be judged: it runs commands, writes or reads files, or loads code. */
const AWK_RISK = /system\s*\(|\||>|getline|@include|@load/;

function awk(judge: ShellJudge, name: string, args: readonly ShellArg[]): void {
  judge.noAlways(NO_ALWAYS);
  const programs: ShellArg[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === null) break;
    if (v === '--') {
      i++;
      break;
    }
    if (!v.startsWith('-') || v === '-') break;
    if (/^-[filEW]/.test(v) || /^--(file|include|load|exec)(=|$)/.test(v))
      return judge.note('unknown', `${name} ${v} runs a program file or loads code, which cannot be judged.`);
    if (/^-[opd]/.test(v) || /^--(pretty-print|profile|dump-variables|debug)(=|$)/.test(v))
      return judge.note('unknown', `${name} ${v} writes a file, which cannot be judged.`);
    if (v === '-e' || v === '--source') {
      if (args[i + 1]) programs.push(args[++i]!);
    } else if (v.startsWith('--source=') || /^-e./.test(v)) {
      const text = v.startsWith('--') ? v.slice('--source='.length) : v.slice(2);
      programs.push({ value: text, raw: text, glob: false });
    } else if (v === '-F' || v === '-v' || v === '--field-separator' || v === '--assign') i++;
  }
  if (programs.length === 0) {
    const program = args[i++];
    if (!program) return judge.note('unknown', `${name} has no program to judge.`);
    programs.push(program);
  }
  for (const program of programs) {
    if (program.value === null) return judge.note('unknown', `The ${name} program is only known at run time.`);
    if (AWK_RISK.test(program.value))
      return judge.note('unknown', `The ${name} program runs commands, writes or reads files (system, |, >, getline), which cannot be judged.`);
  }
  // Operands are files, except `name=value` assignments.
  for (const a of args.slice(i)) if (!(a.value !== null && /^[A-Za-z_]\w*=/.test(a.value))) judge.arg(a, 'read');
}

function sed(judge: ShellJudge, args: readonly ShellArg[]): void {
  if (has(args, 'f', '--file')) {
    judge.noAlways(NO_ALWAYS);
    return judge.note('unknown', 'sed -f runs a program file, which cannot be judged.');
  }
  const scripts = optionValues(args, 'e', '--expression');
  const files: ShellArg[] = [];
  let seenScript = scripts.length > 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const v = a.value;
    if (v !== null && /^-[a-zA-Z]*e$/.test(v)) {
      i++;
      continue;
    }
    if (v === '-l' || v === '--line-length' || v === '--expression') {
      i++;
      continue;
    }
    if (isOption(a)) continue;
    if (!seenScript) {
      scripts.push(a);
      seenScript = true;
    } else files.push(a);
  }
  const inPlace = has(args, 'i', '--in-place');
  const sandboxed = has(args, '', '--sandbox');
  // BSD sed (macOS) reads the word after a bare -i as a backup suffix: the program may be the next one.
  if (
    inPlace &&
    args.some((a) => a.value === '-i') &&
    optionValues(args, 'e', '--expression').length === 0 &&
    files[0] &&
    /^(\.[\w.-]*)?$/.test(scripts[0]?.value ?? '-')
  )
    scripts.push(files[0]);
  for (const s of scripts) {
    const risk = s.value === null ? 'The sed program is only known at run time.' : sandboxed ? null : sedScriptRisk(s.value);
    if (risk) {
      judge.noAlways(NO_ALWAYS);
      return judge.note('unknown', risk);
    }
  }
  for (const f of files) judge.arg(f, inPlace ? 'write' : 'read');
  if (inPlace) judge.note('write', 'sed -i edits files in place.');
}
