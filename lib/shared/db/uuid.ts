const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `value` is a UUID in its canonical 8-4-4-4-12 form, the only form this service issues.
 * Check an id with it before it reaches a uuid column: Postgres answers anything else with an
 * error (a 500), where the client deserves a 400 for a bad field or a 404 for an unknown id.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
