import { CommanderError } from 'commander';
import { CommandFailure, describeFailure, EXIT, isBrokenPipe } from './failure.js';
import { buildProgram } from './program.js';

/** `memd <command>`: bin/memd.js loads this module (built, or the sources through tsx). */

// A blank MEMD_* variable is unset, as the settings read them (src/config/setting.ts); commander would take MEMD_URL='' as a URL.
for (const [name, value] of Object.entries(process.env))
  if (name.startsWith('MEMD_') && value?.trim() === '') delete process.env[name];

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has printed the help or the usage error already.
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else if (!isBrokenPipe(error)) {
    process.stderr.write(`memd: ${describeFailure(error)}\n`);
    process.exitCode = error instanceof CommandFailure ? error.exitCode : EXIT.failed;
  }
}
