/**
 * Where a wallet's history is served (zod-free, so the page imports it without the schemas): the
 * list and the routes under it, and where a browser signs in and out.
 */
export const HISTORY_PATH = "/api/history";
export const SESSION_PATH = `${HISTORY_PATH}/session`;
