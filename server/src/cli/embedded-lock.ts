/** The server writes its pid here (in DATA_DIR) while it runs on the embedded database. */
export const EMBEDDED_PID_FILE = 'embedded-database.pid';
