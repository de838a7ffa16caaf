import { Type, type Static } from 'typebox';
import { JsonObject, Nullable, StringEnum, Timestamp } from './primitives.js';

export const APP_TYPES = ['generic', 'chat', 'agent', 'tool'] as const;
export type ApplicationType = (typeof APP_TYPES)[number];

/** A tenant-level application, declared once: response schema and stored record. Links enable it in workspaces. */
export const ApplicationRecord = Type.Object(
  {
    id: Type.String({ description: 'app_…' }),
    tenant_id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    app_type: StringEnum(APP_TYPES),
    enabled: Type.Boolean(),
    config: JsonObject,
    metadata: JsonObject,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Application' },
);
export type Application = Static<typeof ApplicationRecord>;

/** An application in one workspace, declared once: disabled there when `enabled` is false, its config overridden. */
export const ApplicationLinkRecord = Type.Object(
  {
    application_id: Type.String(),
    workspace_id: Type.String(),
    enabled: Type.Boolean({ description: 'false keeps the link but disables the application in this workspace' }),
    config_overrides: JsonObject,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'ApplicationLink' },
);
export type ApplicationLink = Static<typeof ApplicationLinkRecord>;
