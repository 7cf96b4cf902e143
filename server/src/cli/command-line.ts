import { ConfigError, parseConfig, type AppConfig } from '../config.js';

/** An operator's command stops with one line on standard error, not a stack trace. */
export function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

/** The environment read as the server reads it; a bad value ends the command naming it. */
export function readConfigOrFail(): AppConfig {
  try {
    return parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}
