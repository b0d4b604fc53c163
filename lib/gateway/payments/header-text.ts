/** The longest `error` or `message` PAYMENT-REQUIRED repeats from its body: what a refusal says can be long (a field name a client chose). */
const HEADER_TEXT_MAX = 160;

/** A refusal's words as a PAYMENT-REQUIRED header repeats them, cut at `max` characters (the body keeps them whole). */
export const cutForHeader = (text: string, max = HEADER_TEXT_MAX): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
