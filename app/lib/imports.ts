/**
 * The largest CSV the import screen accepts: checked in the browser before sending (with
 * JavaScript) and by the server; the request guard caps the whole body at 12 MB and sends a
 * larger upload back to the screen with the same message.
 */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024
