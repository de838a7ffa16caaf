import { runServer } from './cli/serve.js';
import { exitWithStartFailure } from './shutdown.js';

/** Process entry of `npm start`: the server as `memd serve` runs it, configured by the environment. */
runServer(process.env).catch((error: unknown) => exitWithStartFailure('memd', error));
