/**
 * Which environment variables a command line may set without a question.
 *
 * A variable given to a command (`VAR=x cmd`, `export VAR=x`, `env VAR=x cmd`, or any assignment after
 * `set -a`) reaches every program that command starts, and many variables make a program run or load other
 * code (LD_PRELOAD, NODE_OPTIONS, GIT_SSH_COMMAND, PAGER, BASH_ENV, PYTHONSTARTUP…). No list of the
 * dangerous ones is complete, so these are judged by an allow-list: only the few below, which only change
 * how output looks or how much is logged, are harmless. A plain shell assignment (`x=1`) stays inside the
 * shell unless the variable is already in the environment, so it is judged by the deny-list instead: the
 * variables the shell itself reads and those a program started later is likely to inherit.
 */
const HARMLESS_EXPORTS = new Set([
  'CI',
  'NODE_ENV',
  'FORCE_COLOR',
  'NO_COLOR',
  'CLICOLOR',
  'CLICOLOR_FORCE',
  'CARGO_TERM_COLOR',
  'LANG',
  'LANGUAGE',
  'TZ',
  'DEBUG',
  'RUST_BACKTRACE',
  'RUST_LOG',
  'NODE_NO_WARNINGS',
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
  'COLUMNS',
  'LINES',
]);
/** Locale categories (LC_ALL, LC_CTYPE…) only pick a locale by name. */
const HARMLESS_EXPORT_PATTERN = /^LC_[A-Z]+$/;

/** Variables the shell or the programs it starts read to decide what runs, what loads, or where things are. */
const RISKY = new Set(
  (
    'PATH CDPATH HOME ENV BASH_ENV PROMPT_COMMAND PS1 PS2 PS4 SHELLOPTS BASHOPTS IFS GLOBIGNORE FIGNORE HISTFILE INPUTRC ' +
    'ZDOTDIR SHELL TMPDIR TMP TEMP USER LOGNAME OLDPWD PWD EDITOR VISUAL PAGER MANPAGER MANOPT SYSTEMD_PAGER BROWSER ' +
    'LESSOPEN LESSCLOSE LESSKEY LESSKEYIN LESS LESSSECURE MORE SSH_ASKPASS SUDO_ASKPASS SSH_AUTH_SOCK DISPLAY ' +
    'WAYLAND_DISPLAY XAUTHORITY TERMINFO TERMINFO_DIRS TERMCAP GCONV_PATH LOCPATH NLSPATH HOSTALIASES RESOLV_HOST_CONF ' +
    'LOCALDOMAIN RES_OPTIONS SSL_CERT_FILE SSL_CERT_DIR CURL_CA_BUNDLE REQUESTS_CA_BUNDLE CURL_HOME WGETRC ' +
    'NETRC VIMINIT EXINIT MYVIMRC GVIMINIT EMACSLOADPATH JAVA_TOOL_OPTIONS _JAVA_OPTIONS JDK_JAVA_OPTIONS ' +
    'CLASSPATH MAVEN_OPTS GRADLE_OPTS CC CXX CPP LD AR AS NM RANLIB STRIP CFLAGS CXXFLAGS LDFLAGS CPPFLAGS MAKE ' +
    'MAKEFLAGS MFLAGS MAKEFILES CONFIG_SHELL GOFLAGS GOPATH GOROOT GOPROXY GOTOOLCHAIN GOENV RUSTFLAGS RUSTC RUSTC_WRAPPER ' +
    'RUSTDOCFLAGS RUSTUP_TOOLCHAIN TS_NODE_COMPILER_OPTIONS ELECTRON_RUN_AS_NODE DOCKER_HOST KUBECONFIG XDG_CONFIG_HOME ' +
    'XDG_DATA_HOME XDG_CONFIG_DIRS XDG_DATA_DIRS XDG_RUNTIME_DIR XDG_CACHE_HOME TEXINPUTS GEM_HOME GEM_PATH BUNDLE_GEMFILE ' +
    'VIRTUAL_ENV CONDA_PREFIX COMP_WORDBREAKS BASH_XTRACEFD BASH_COMPAT MAIL MAILPATH'
  ).split(' '),
);
/** Families of variables that load code or change where a tool connects (LD_PRELOAD, GIT_SSH, npm_config_*…). */
const RISKY_PATTERN =
  /^(LD_|DYLD_|GIT_|NODE_|NPM_CONFIG_|npm_config_|YARN_|yarn_|PNPM_|BUN_|DENO_|PYTHON|PIP_|PERL|RUBY|BUNDLE_|CARGO_|RUSTUP_|BASH_|LESS|SSH_|GPG|DOCKER_|AWS_|MALLOC_|GLIBC_|QT_|GTK_|GIO_|DBUS_)|(_PROXY|_proxy|_OPTIONS|_OPTS|_FLAGS|_PATH|_HOME|_COMMAND|_CMD|_EDITOR|_PAGER)$/;

/** Why giving `name` to the programs a command starts cannot be judged, or null when it is harmless. */
export function exportedVariableRisk(name: string): string | null {
  if (HARMLESS_EXPORTS.has(name) || HARMLESS_EXPORT_PATTERN.test(name)) return null;
  return `It gives the variable ${name} to the programs it starts, and Amber cannot tell what that makes them run or load.`;
}

/** Why setting `name` inside the shell cannot be judged (it changes what later commands run), or null. */
export function shellVariableRisk(name: string): string | null {
  if (RISKY.has(name) || RISKY_PATTERN.test(name)) return `It sets ${name}, which changes what later commands run or load.`;
  return null;
}
