/** A failure said so a person can act on it: what happened, and what to do next. */
export class UserFacingError extends Error {
  readonly action: string | null;
  readonly status: number | null;
  constructor(message: string, { action = null, status = null }: { action?: string | null; status?: number | null } = {}) {
    super(message);
    this.name = "UserFacingError";
    this.action = action;
    this.status = status;
  }
}
