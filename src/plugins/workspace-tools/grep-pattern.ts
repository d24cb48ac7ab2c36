import { RE2JS } from 're2js';
import { ToolFailure } from './tool-failure.ts';

/** The start of RE2's complaint for syntax it cannot express, as the model would name it. */
function unsupportedFeature(at: string): string | undefined {
  if (/^\\([1-9]|k)/.test(at)) return 'a backreference';
  if (/^\(\?<?[=!]/.test(at)) return 'lookaround';
  return undefined;
}

/**
 * Compiles grep's pattern with RE2 (re2js), whose matching time is linear in the line: no pattern can
 * stall the tool, at the price of backreferences and lookaround, which get a sentence saying so.
 */
export function compileGrepPattern(pattern: string, options: { literal: boolean; ignoreCase: boolean }): RE2JS {
  const source = options.literal ? RE2JS.quote(pattern) : pattern;
  try {
    return RE2JS.compile(source, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    const at = (error as { input?: unknown }).input;
    const feature = typeof at === 'string' ? unsupportedFeature(at) : undefined;
    if (feature) {
      throw new ToolFailure(
        `The pattern uses ${feature} (${at}), which grep's linear-time regular expressions (RE2 syntax) cannot express; pass literal: true to search for the text as is, or use a simpler pattern.`,
      );
    }
    throw new ToolFailure(`The pattern is not a valid regular expression (${(error as Error).message}); fix it or pass literal: true.`);
  }
}
