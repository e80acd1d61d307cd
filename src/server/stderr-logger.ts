/**
 * The server's logger: logfmt lines on stderr, because stdout of a stdio server carries JSON-RPC only.
 * A module of its own (it imports only effect) so the command line's entry point can log with it
 * without loading the server, which it imports only when `serve` runs.
 */
import { Logger } from "effect"

/** Logs go to stderr: stdout of a stdio server carries JSON-RPC only. */
export const stderrLogger = Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger))
