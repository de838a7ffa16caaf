import type { Command } from 'commander';
import { loadConfig, type Config } from '../config.js';
import type { CheckResult } from './doctor-checks.js';
import { DOCTOR_EXIT } from './doctor-exit.js';
import { addSettingOptions, DATA_DIR, environmentWith } from './settings.js';

const SETTINGS = [DATA_DIR];

const line = ({ status, check, detail }: CheckResult): string => `${status.padEnd(5)} ${check.padEnd(15)} ${detail}\n`;

/** Each check in turn, printed as it ends (loading a model takes a while); the exit status sums the failures' bits. */
async function runChecks(config: Config, report: (result: CheckResult) => void): Promise<number> {
  const { checkDataDirectory, checkEmbedder, checkLanguageModel, checkPgvector, checkPostgresServer, checkStorage } =
    await import('./doctor-checks.js');
  let exitCode = 0;
  const record = (result: CheckResult, bit: number) => {
    report(result);
    if (result.status === 'fail') exitCode |= bit;
  };
  record(checkDataDirectory(config), DOCTOR_EXIT.dataDirectory);
  const { outcome, inspection } = await checkStorage(config);
  record(outcome, DOCTOR_EXIT.storage);
  record(await checkEmbedder(config, inspection), DOCTOR_EXIT.embedder);
  record(await checkLanguageModel(config), DOCTOR_EXIT.languageModel);
  record(checkPgvector(config, inspection), DOCTOR_EXIT.pgvector);
  // Advice only: a server off docs/deploy.md's settings works, slower; the check never fails.
  record(checkPostgresServer(config, inspection), 0);
  return exitCode;
}

async function doctor(options: { json?: boolean } & Record<string, unknown>): Promise<void> {
  const results: CheckResult[] = [];
  const report = (result: CheckResult) => {
    results.push(result);
    if (!options.json) process.stdout.write(line(result));
  };
  let config: Config | undefined;
  try {
    config = loadConfig(environmentWith(options, SETTINGS));
    report({
      check: 'configuration',
      status: 'ok',
      detail: `${config.storage.kind} storage, ${config.embedding.provider} embedder, language model: ${config.llm.provider}`,
    });
  } catch (error) {
    report({ check: 'configuration', status: 'fail', detail: error instanceof Error ? error.message : String(error) });
  }
  const exitCode = config ? await runChecks(config, report) : DOCTOR_EXIT.configuration;
  if (options.json) process.stdout.write(`${JSON.stringify({ exit_code: exitCode, checks: results }, null, 2)}\n`);
  process.exitCode = exitCode;
}

export function doctorCommand(program: Command): void {
  const command = program
    .command('doctor')
    .summary('check the configuration, data directory, storage and models')
    .description(
      'Check what a server on this configuration needs: data directory writable, storage reachable and migrated, embedder loads, language model answers (if configured), pgvector and the server settings memd relies on, on PostgreSQL',
    )
    .option('--json', 'print the checks as JSON')
    .addHelpText(
      'after',
      `
Exit status: 0 when nothing failed (warnings included); ${DOCTOR_EXIT.configuration} when the configuration is invalid (nothing else is checked);
otherwise the sum of the failed checks: data directory ${DOCTOR_EXIT.dataDirectory}, storage ${DOCTOR_EXIT.storage}, embedder ${DOCTOR_EXIT.embedder}, language model ${DOCTOR_EXIT.languageModel}, pgvector ${DOCTOR_EXIT.pgvector}.`,
    )
    .action(doctor);
  addSettingOptions(command, SETTINGS);
}
