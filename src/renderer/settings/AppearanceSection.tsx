import type { ThemeChoice } from '../ui/index.ts';
import { SegmentedControl } from './SegmentedControl.tsx';

const THEMES = [
  { value: 'light', label: 'Light', testId: 'theme-light' },
  { value: 'dark', label: 'Dark', testId: 'theme-dark' },
  { value: 'system', label: 'Like the system', testId: 'theme-system' },
] as const;

/** How the window looks: the theme (also Ctrl+Shift+L and the button in the top bar). */
export function AppearanceSection({ theme, onTheme }: { theme: ThemeChoice; onTheme(theme: ThemeChoice): void }) {
  return (
    <section className="settings-section" aria-labelledby="settings-appearance" data-testid="settings-appearance">
      <h2 id="settings-appearance">Appearance</h2>
      <p className="muted settings-lead">The theme. Ctrl+Shift+L and the button in the top bar switch between light and dark.</p>
      <SegmentedControl label="Theme" options={THEMES} value={theme} onChange={onTheme} testId="theme-choice" />
    </section>
  );
}
