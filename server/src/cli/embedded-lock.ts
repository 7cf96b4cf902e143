/**
 * The server writes its pid and the embedded database's loopback URL here (in DATA_DIR, one a
 * line) while it runs on the embedded database.
 */
export const EMBEDDED_PID_FILE = 'embedded-database.pid';
