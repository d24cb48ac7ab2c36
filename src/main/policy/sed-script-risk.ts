/**
 * Why a sed program cannot be judged from its text, or null when it only edits the text passing through.
 *
 * Read as GNU sed reads it: addresses (`1`, `$`, `/re/I`, `\%re%`, `first~step`, `a,+N`), `!`, blocks, and
 * each command with its own argument rules. A program that runs commands (`e`, `s///e`), writes files
 * (`w`, `W`, `s///w`) or reads files (`r`, `R`) cannot be judged; neither can one this reader does not
 * understand, so an odd address or flag errs towards asking.
 */
export function sedScriptRisk(script: string): string | null {
  const s = script;
  let i = 0;
  const skipBlanks = () => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
  };
  const toLineEnd = () => {
    while (i < s.length && s[i] !== '\n') i++;
  };
  /** Skips a delimited part (regex or replacement) ending at `delim`; false when it does not end. */
  const delimited = (delim: string): boolean => {
    while (i < s.length) {
      const c = s[i++]!;
      if (c === '\\') i++;
      else if (c === delim) return true;
      else if (c === '\n' && delim !== '\n') return false;
    }
    return false;
  };
  const address = (): boolean => {
    const c = s[i];
    if (c === undefined) return true;
    if (/\d/.test(c)) {
      while (i < s.length && /\d/.test(s[i]!)) i++;
      if (s[i] === '~') {
        i++;
        while (i < s.length && /\d/.test(s[i]!)) i++;
      }
      return true;
    }
    if (c === '$') return (i++, true);
    if (c === '/' || c === '\\') {
      let delim = '/';
      if (c === '\\') {
        delim = s[i + 1] ?? '';
        if (delim === '' || delim === '\n' || delim === '\\') return false;
        i++;
      }
      i++;
      if (!delimited(delim)) return false;
      while (s[i] === 'I' || s[i] === 'M') i++;
      return true;
    }
    return true;
  };

  while (i < s.length) {
    while (i < s.length && /[\s;]/.test(s[i]!)) i++;
    if (i >= s.length) break;
    if (s[i] === '#') {
      toLineEnd();
      continue;
    }
    if (s[i] === '}') {
      i++;
      continue;
    }
    const start = i;
    if (!address()) return 'The sed program cannot be read, so what it does cannot be judged.';
    if (i > start) {
      skipBlanks();
      if (s[i] === ',') {
        i++;
        skipBlanks();
        if (s[i] === '+' || s[i] === '~') {
          i++;
          while (i < s.length && /\d/.test(s[i]!)) i++;
        } else if (!address()) return 'The sed program cannot be read, so what it does cannot be judged.';
      }
    }
    skipBlanks();
    while (s[i] === '!') {
      i++;
      skipBlanks();
    }
    const cmd = s[i++];
    switch (cmd) {
      case '{':
        continue;
      case '=':
      case 'd':
      case 'D':
      case 'g':
      case 'G':
      case 'h':
      case 'H':
      case 'n':
      case 'N':
      case 'p':
      case 'P':
      case 'x':
      case 'z':
      case 'F':
        break;
      case 'l':
      case 'q':
      case 'Q':
      case 'L':
        skipBlanks();
        while (i < s.length && /\d/.test(s[i]!)) i++;
        break;
      case 'a':
      case 'i':
      case 'c':
        // Text to the end of the line; a backslash before the newline continues it.
        while (i < s.length && s[i] !== '\n') i += s[i] === '\\' ? 2 : 1;
        break;
      case 'b':
      case 't':
      case 'T':
      case ':':
      case 'v':
        while (i < s.length && s[i] !== '\n' && s[i] !== ';' && s[i] !== '}') i++;
        break;
      case 'r':
      case 'R':
        return `The sed program reads a file (${cmd}), which cannot be judged.`;
      case 'w':
      case 'W':
        return `The sed program writes a file (${cmd}), which cannot be judged.`;
      case 'e':
        return 'The sed program runs commands (e), which cannot be judged.';
      case 's':
      case 'y': {
        const delim = s[i++];
        if (delim === undefined || delim === '\n' || delim === '\\') return 'The sed program cannot be read, so what it does cannot be judged.';
        if (!delimited(delim) || !delimited(delim)) return 'The sed program cannot be read, so what it does cannot be judged.';
        if (cmd === 'y') break;
        while (i < s.length && /[gpiImM0-9ew]/.test(s[i]!)) {
          const flag = s[i++]!;
          if (flag === 'e') return 'The sed program runs the result of a substitution as a command (s///e), which cannot be judged.';
          if (flag === 'w') return 'The sed program writes a file (s///w), which cannot be judged.';
        }
        break;
      }
      default:
        return 'The sed program cannot be read, so what it does cannot be judged.';
    }
    skipBlanks();
    if (i < s.length && !/[\n;}#]/.test(s[i]!)) return 'The sed program cannot be read, so what it does cannot be judged.';
  }
  return null;
}
