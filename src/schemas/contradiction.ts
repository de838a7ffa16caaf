import { Type, type Static } from 'typebox';
import { Nullable, StringEnum, Timestamp } from './primitives.js';

export const RESOLUTIONS = ['keep_a', 'keep_b', 'keep_both', 'merge'] as const;
export type ContradictionResolution = (typeof RESOLUTIONS)[number];

/** Two memories that disagree, declared once: response schema and stored record. */
export const ContradictionRecord = Type.Object(
  {
    id: Type.String(),
    workspace_id: Type.String(),
    memory_a_id: Type.String({ description: 'the earlier memory' }),
    memory_b_id: Type.String({ description: 'the later memory' }),
    contradiction_type: Type.String({
      description: 'negation, number_change, date_change, exclusive_value (or other, from a language model)',
    }),
    confidence: Type.Number(),
    detection_method: Type.String({ description: 'rules or llm' }),
    explanation: Nullable(
      Type.String({ description: 'what disagrees, said for a person ("residence: Paris vs Berlin")' }),
    ),
    detected_at: Timestamp,
    resolved_at: Nullable(Timestamp),
    resolution: Nullable(StringEnum(RESOLUTIONS)),
    merged_memory_id: Nullable(Type.String({ description: 'the memory that replaced both (merge)' })),
  },
  { title: 'Contradiction' },
);
export type Contradiction = Static<typeof ContradictionRecord>;
