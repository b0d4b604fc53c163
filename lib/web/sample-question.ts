/**
 * The question of the home page's free sample answer: what the engine answered over the demo
 * library is stored in sample-answer.json (tests/integration/sample-answer.test.ts makes it).
 */
export const SAMPLE_QUESTION = "Is shorter telomere length associated with higher mortality?";
