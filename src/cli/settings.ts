import { Option, type Command } from 'commander';
import type { Setting } from '../config/setting.js';
import { STORAGE } from '../config/settings/storage.js';

type Env = Record<string, string | undefined>;

/** A command-line option that stands for a setting (src/config/settings): it sets that MEMD_* variable, nothing more. */
export interface SettingOption {
  flags: string;
  variable: string;
  description: string;
}

const optionOf = (setting: SettingOption): Option =>
  new Option(setting.flags, `${setting.description} (overrides ${setting.variable})`);

/** The option `flags` for a setting, described by its meaning. */
export const settingOption = (flags: string, setting: Setting<unknown>): SettingOption => ({
  flags,
  variable: setting.name,
  description: setting.meaning,
});

/** Adds the options to the command; their values are parsed, checked and defaulted where the variable is declared. */
export function addSettingOptions(command: Command, settings: readonly SettingOption[]): Command {
  for (const setting of settings) command.addOption(optionOf(setting));
  return command;
}

/** The environment with each option given on the command line in place of its variable. */
export function environmentWith(
  options: Record<string, unknown>,
  settings: readonly SettingOption[],
  env: Env = process.env,
): Env {
  const given: Env = {};
  for (const setting of settings) {
    const value = options[optionOf(setting).attributeName()];
    if (typeof value === 'string') given[setting.variable] = value;
  }
  return { ...env, ...given };
}

/** Where the local commands (serve, reembed, doctor, mcp) find the data directory. */
export const DATA_DIR = settingOption('--data-dir <path>', STORAGE.dataDir);
