import { bothWays, otherOfPair } from './word-pairs.js';

/**
 * English nouns whose plural the stemmers do not relate to the singular: "children" and "child", "people" and
 * "person", "teeth" and "tooth", "crises" and "crisis" (Porter: children / child, crise / crisi). A keyword query for
 * one form also asks for the other, as it does for an irregular verb's (irregular-verbs.ts). Plurals that are as often
 * a verb of another meaning are left out: "lives" (she lives in Lisbon: no "life"), "leaves" (the train leaves at
 * five: no "leaf"), "dice", and "data" and "media", which are used as singulars of their own.
 */
const NOUNS = `child children|person people|man men|woman women|mouse mice|foot feet|tooth teeth|goose geese|
wife wives|knife knives|wolf wolves|shelf shelves|thief thieves|loaf loaves|calf calves|half halves|
cactus cacti|fungus fungi|nucleus nuclei|criterion criteria|phenomenon phenomena|analysis analyses|crisis crises|
diagnosis diagnoses|hypothesis hypotheses|thesis theses|appendix appendices|matrix matrices|vertex vertices|
index indices`;

const OTHER = bothWays(NOUNS.split('|').map((pair) => pair.trim().split(' ') as [string, string]));

/** The other number of an irregular noun ("children" → child, "tooth" → teeth), or none. */
export const otherNounForms = (word: string): readonly string[] => otherOfPair(OTHER, word);
