/**
 * `npm run docs:settings`: writes the README's tables of settings from the declarations (src/config/settings for
 * memd, src/peer/config.ts for the embedding peer), each between `<!-- settings:NAME -->` and
 * `<!-- /settings:NAME -->`. test/config/readme-settings.test.ts fails when README.md differs from what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SETTING_GROUPS } from '../src/config.js';
import type { Setting, SettingGroup } from '../src/config/setting.js';
import { PEER_SETTINGS, PEER_SHARED_SETTINGS } from '../src/peer/config.js';

export const README_FILE = join(fileURLToPath(new URL('..', import.meta.url)), 'README.md');
export const REGENERATE = 'run `npm run docs:settings` and commit README.md';

const row = (cells: string[]): string =>
  `|${cells.map((cell) => ` ${cell.replaceAll('|', '\\|')} `.replace(/^ {2}$/, ' ')).join('|')}|`;

/** One table: a row per setting, in declaration order. */
export function settingsTable(settings: readonly Setting<unknown>[]): string {
  const rows = settings.map((one) => row([`\`${one.name}\``, one.shownDefault, one.accepts, one.meaning]));
  return [row(['Variable', 'Default', 'Accepts', 'Meaning']), '|---|---|---|---|', ...rows].join('\n');
}

const names = (settings: readonly Setting<unknown>[]): string => settings.map((one) => `\`${one.name}\``).join(', ');

const groupTables = (groups: readonly SettingGroup[]): string =>
  groups.map((group) => `**${group.title}**\n\n${settingsTable(group.settings)}`).join('\n\n');

/** What goes between each pair of markers, by the marker's name. */
export function settingsSections(): Record<string, string> {
  return {
    memd: groupTables(SETTING_GROUPS),
    peer: `${settingsTable(PEER_SETTINGS)}\n\nThe peer reads these of memd's settings too (Configuration above): ${names(PEER_SHARED_SETTINGS)}.`,
  };
}

/** `readme` with every marked section replaced by what the declarations give; a section without its markers is an error. */
export function withSettings(readme: string, sections: Record<string, string> = settingsSections()): string {
  let result = readme;
  for (const [name, body] of Object.entries(sections)) {
    const begin = `<!-- settings:${name} -->`;
    const end = `<!-- /settings:${name} -->`;
    const from = result.indexOf(begin);
    const to = result.indexOf(end);
    if (from < 0 || to < from) throw new Error(`README.md has no ${begin} … ${end} section`);
    result = `${result.slice(0, from + begin.length)}\n${body}\n${result.slice(to)}`;
  }
  return result;
}

function main(): void {
  writeFileSync(README_FILE, withSettings(readFileSync(README_FILE, 'utf8')));
  console.log(`wrote the settings tables of ${README_FILE}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
