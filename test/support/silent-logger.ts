import type { Logger } from '../../src/core/logger.js';

/** A core logger that writes nothing: for services and runners a test builds by hand. */
export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
