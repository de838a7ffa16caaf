import { CommanderError } from 'commander';
import { CommandFailure, describeFailure, EXIT } from './failure.js';
import { buildProgram } from './program.js';

/** `memd <command>`: bin/memd.js loads this module (built, or the sources through tsx). */
try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has printed the help or the usage error already.
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    process.stderr.write(`memd: ${describeFailure(error)}\n`);
    process.exitCode = error instanceof CommandFailure ? error.exitCode : EXIT.failed;
  }
}
