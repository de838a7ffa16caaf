/**
 * Light and dark: the reader's system preference (prefers-color-scheme, in the stylesheet) unless they chose one
 * with the toggle, which is remembered (localStorage) and set as `data-theme` on <html>.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

const ITEM = 'memd.theme';
const CHOICES: ThemeChoice[] = ['system', 'light', 'dark'];

export function savedTheme(): ThemeChoice {
  const saved = localStorage.getItem(ITEM);
  return CHOICES.includes(saved as ThemeChoice) ? (saved as ThemeChoice) : 'system';
}

export function applyTheme(choice: ThemeChoice): void {
  if (choice === 'system') {
    document.documentElement.removeAttribute('data-theme');
    localStorage.removeItem(ITEM);
  } else {
    document.documentElement.setAttribute('data-theme', choice);
    localStorage.setItem(ITEM, choice);
  }
}

export const nextTheme = (choice: ThemeChoice): ThemeChoice => CHOICES[(CHOICES.indexOf(choice) + 1) % CHOICES.length]!;

/** Whether the page is dark now (the graph's canvas needs colours, not CSS variables). */
export const isDark = (): boolean =>
  document.documentElement.getAttribute('data-theme') === 'dark' ||
  (!document.documentElement.hasAttribute('data-theme') && matchMedia('(prefers-color-scheme: dark)').matches);
