/**
 * The contract's numeric limits, in a module without zod, so the page can check input before
 * paying without carrying the schemas in its first load (the schemas use these same values).
 */
/** A chat or deep-research `message`. */
export const MAX_MESSAGE_CHARS = 32_000;
/** A literature `question`. */
export const MAX_QUESTION_CHARS = 8192;
export const MAX_TAGS = 16;
export const MAX_TAG_CHARS = 200;
export const MAX_RESULTS_LIMIT = 200;
/**
 * A sealed chat envelope: the largest legitimate one (5 attachments of 100,000 characters) is
 * about 700 KB of base64, so encrypted chat takes up to 1 MiB where other bodies take
 * MAX_BODY_BYTES; the agent takes every envelope up to this.
 */
export const PRIVATE_ENVELOPE_MAX_BYTES = 1024 * 1024;
