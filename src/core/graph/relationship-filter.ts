import { invalid } from '../../errors.js';
import { CATEGORY_NAMES, normaliseRelationship, typesInCategories, type RelationshipType } from './taxonomy.js';

/**
 * The relationship types a request names, directly or through categories, validated and lower-cased; undefined when
 * it names none (every type applies). An unknown name is a 422, never a filter that silently matches nothing.
 */
export function relationshipFilter(input: {
  types?: readonly string[] | undefined;
  categories?: readonly string[] | undefined;
  typesPath: string;
  categoriesPath?: string;
}): RelationshipType[] | undefined {
  const types = (input.types ?? []).map((name) => {
    const type = normaliseRelationship(name);
    if (!type)
      throw invalid(
        input.typesPath,
        `unknown relationship type '${name}'; GET /v1/workspaces/{workspace_id}/schema lists them`,
      );
    return type;
  });
  const categories = (input.categories ?? []).map((name) => {
    const category = name.trim().toLowerCase();
    if (!(CATEGORY_NAMES as readonly string[]).includes(category)) {
      throw invalid(
        input.categoriesPath ?? '/relationship_categories',
        `unknown relationship category '${name}'; one of ${CATEGORY_NAMES.join(', ')}`,
      );
    }
    return category;
  });
  if (types.length === 0 && categories.length === 0) return undefined;
  return [...new Set([...types, ...typesInCategories(categories)])];
}

/** `a,b , c` → ['a', 'b', 'c']: comma-separated query values, also when repeated. */
export function splitList(values: string | readonly string[] | undefined): string[] {
  if (values === undefined) return [];
  return (typeof values === 'string' ? [values] : values)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}
