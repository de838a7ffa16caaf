import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { README_FILE, REGENERATE, settingsSections, withSettings } from '../../scripts/settings-docs.js';
import { loadConfig, SETTING_GROUPS } from '../../src/config.js';
import { loadPeerConfig, PEER_SETTINGS, profileSettings } from '../../src/peer/config.js';

type Env = Record<string, string | undefined>;

/** The names of the variables `load` reads from each of the environments, seen through a proxy. */
function variablesRead(load: (env: Env) => unknown, environments: Env[]): Set<string> {
  const read = new Set<string>();
  for (const given of environments) {
    const env = new Proxy(given, {
      get(target, name) {
        if (typeof name === 'string') read.add(name);
        return target[name as string];
      },
    });
    load(env);
  }
  return read;
}

describe('the README tables of settings', () => {
  it('are what the declarations give (else: npm run docs:settings)', () => {
    const readme = readFileSync(README_FILE, 'utf8');
    expect(readme, REGENERATE).toBe(withSettings(readme));
  });

  it('list each memd variable once, in sections the README has', () => {
    const names = SETTING_GROUPS.flatMap((group) => group.settings.map((one) => one.name));
    expect(names.length).toBeGreaterThan(70);
    expect(new Set(names).size).toBe(names.length);
    const sections = settingsSections();
    for (const name of names) expect(sections.memd).toContain(`| \`${name}\` |`);
  });

  it('declare every variable loadConfig and loadPeerConfig read', () => {
    const memd = variablesRead(loadConfig, [
      {},
      { MEMD_STORAGE: 'postgres', MEMD_DATABASE_URL: 'postgres://u@h/db' },
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_SERVICE_NAME: 'x' },
    ]);
    const declared = new Set(SETTING_GROUPS.flatMap((group) => group.settings.map((one) => one.name)));
    expect([...memd].filter((name) => !declared.has(name))).toEqual([]);
    // Every declaration is read by some path (none is documented but dead).
    expect([...declared].filter((name) => !memd.has(name))).toEqual([]);

    const peer = variablesRead(loadPeerConfig, [
      {},
      {
        MEMD_PEER_LLM_ENABLED: 'true',
        MEMD_PEER_LLM_PROFILES: 'fast',
        MEMD_PEER_LLM_FAST_BASE_URL: 'http://u/v1',
        MEMD_PEER_LLM_FAST_MODEL: 'm',
      },
    ]);
    const peerDeclared = new Set([...PEER_SETTINGS, ...Object.values(profileSettings('FAST'))].map((one) => one.name));
    expect([...peer].filter((name) => !peerDeclared.has(name) && !declared.has(name))).toEqual([]);
  });
});
