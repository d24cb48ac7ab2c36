import { Fragment } from 'react';
import { Icon } from './Icon.tsx';

// Symbols plugins and the core write into plain text, drawn as the app's own icons (no font needed for
// them), each with the word a screen reader says instead.
const GLYPHS: Record<string, { icon: string; word: string }> = {
  '↑': { icon: 'arrowUp', word: 'in' },
  '↓': { icon: 'arrowDown', word: 'out' },
  '⚠': { icon: 'alert', word: 'Warning:' },
  '⛔': { icon: 'stop', word: 'Blocked:' },
};
const PATTERN = /(↑|↓|⚠\uFE0F?|⛔\uFE0F?) ?/u;

/** `text` with ↑ ↓ ⚠ ⛔ drawn as icons; a space after a symbol is taken by the icon's gap. */
export function GlyphText({ text }: { text: string }) {
  const parts = text.split(PATTERN);
  if (parts.length === 1) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) => {
        if (i % 2 === 0) return part ? <Fragment key={i}>{part}</Fragment> : null;
        const glyph = GLYPHS[part.replace('\uFE0F', '')]!;
        return (
          <span key={i} className="glyph">
            <Icon name={glyph.icon} size={12} />
            <span className="sr-only">{glyph.word} </span>
          </span>
        );
      })}
    </>
  );
}
