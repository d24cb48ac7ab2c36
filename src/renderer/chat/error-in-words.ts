import { splitFailureAdvice } from '../../shared/providers/index.ts';

/** An error as a person reads it: what happened and what to do, with the technical text kept apart. */
export interface ErrorInWords {
  summary: string;
  /** The original text, when the summary left part of it out. */
  details: string | null;
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/**
 * Rewrites the providers' failure sentences (see provider-error.ts) so the first line says what a user can
 * act on: "Could not reach X at URL: <cause>. Check…" becomes "Amber could not reach the server at host:port
 * — is it running?"; "X answered HTTP 500: <body>. <advice>" keeps the status and the advice. Anything else
 * is already words and shows as it is.
 */
export function errorInWords(text: string): ErrorInWords {
  const trimmed = text.trim();
  const unreachable = /^Could not reach (.+?) at (\S+?): [\s\S]+$/.exec(trimmed);
  if (unreachable) return { summary: `Amber could not reach the server at ${hostOf(unreachable[2]!)} — is it running?`, details: trimmed };
  const http = /^([\s\S]*?)(\S[^.]*?) answered HTTP (\d{3}): ([\s\S]+)$/.exec(trimmed);
  if (http) {
    const [, before, label, status, rest] = http;
    // Only Amber's own advice follows the status: the server's words, however many sentences, are details.
    const { advice } = splitFailureAdvice(rest!);
    return { summary: `${before}${label} answered with an error (HTTP ${status}).${advice.map((a) => ` ${a}`).join('')}`.trim(), details: trimmed };
  }
  return { summary: trimmed, details: null };
}
