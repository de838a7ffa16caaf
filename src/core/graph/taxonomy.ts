/**
 * The relationship taxonomy: every type and its category, in one table. docs/specification.md §2 names 48 distinct types
 * (it lists `refines` twice) and says there are 63; the other 15 are the inverse forms the reference ontology
 * uses (`caused_by`, `solved_by`, …), so that every common edge can be stated from either end.
 */
export const RELATIONSHIP_CATEGORIES = {
  hierarchical: ['parent_of', 'child_of', 'part_of', 'contains', 'instance_of', 'subtype_of'],
  causal: ['causes', 'caused_by', 'triggers', 'triggered_by', 'leads_to', 'prevents', 'prevented_by'],
  solution: ['solves', 'solved_by', 'addresses', 'addressed_by', 'alternative_to', 'improves', 'improved_by'],
  context: ['occurs_in', 'applies_to', 'works_with', 'requires', 'required_by'],
  learning: ['builds_on', 'contradicts', 'confirms', 'supports', 'supersedes', 'superseded_by'],
  similarity: ['similar_to', 'variant_of', 'related_to', 'analogous_to', 'duplicate_of'],
  workflow: ['follows', 'followed_by', 'depends_on', 'depended_on_by', 'enables', 'enabled_by', 'blocks', 'blocked_by'],
  quality: ['effective_for', 'preferred_over', 'deprecated_by', 'deprecates'],
  temporal: ['before', 'after', 'during', 'precedes', 'concurrent_with', 'follows_temporally'],
  refinement: ['refines', 'refined_by', 'abstracts', 'specializes', 'generalizes', 'replaces', 'replaced_by'],
  reference: ['references', 'referenced_by'],
} as const;

export type RelationshipCategory = keyof typeof RELATIONSHIP_CATEGORIES;
export type RelationshipType = (typeof RELATIONSHIP_CATEGORIES)[RelationshipCategory][number];

const CATEGORY_BY_TYPE: ReadonlyMap<string, RelationshipCategory> = new Map(
  Object.entries(RELATIONSHIP_CATEGORIES).flatMap(([category, types]) =>
    types.map((type) => [type, category as RelationshipCategory]),
  ),
);

export const RELATIONSHIP_TYPES: readonly RelationshipType[] = [...CATEGORY_BY_TYPE.keys()] as RelationshipType[];

export const CATEGORY_NAMES = Object.keys(RELATIONSHIP_CATEGORIES) as RelationshipCategory[];

/** Case-insensitive lookup: `SIMILAR_TO` and `similar_to` are the same type. Null when unknown. */
export function normaliseRelationship(name: string): RelationshipType | null {
  const lower = name.trim().toLowerCase();
  return CATEGORY_BY_TYPE.has(lower) ? (lower as RelationshipType) : null;
}

export function categoryOf(type: string): RelationshipCategory | null {
  return CATEGORY_BY_TYPE.get(type) ?? null;
}

/** Every type in the given categories. */
export function typesInCategories(categories: readonly string[]): RelationshipType[] {
  return categories.flatMap((c) => [...(RELATIONSHIP_CATEGORIES[c.toLowerCase() as RelationshipCategory] ?? [])]);
}
