/**
 * Questions a longevity researcher might ask, offered under the chat box: a click writes one in
 * the box and asks nothing (asking is paid). Each has an answer in the demo's library too.
 */
export const EXAMPLE_QUESTIONS = [
  "Does rapamycin extend lifespan in mice?",
  "Does metformin reduce frailty in older adults?",
  "Do senolytics improve physical function in older adults?",
  "Does caloric restriction delay age-related disease in primates?",
] as const;
