import { Type } from 'typebox';
import { APP_TYPES, ApplicationLinkRecord, ApplicationRecord } from '../../schemas/application.js';
import { JsonObject, NonBlank, Nullable, StringEnum } from './common.js';
import { Paging } from './registry.js';

const AppType = StringEnum(APP_TYPES);

/** The one declaration of an application and of its link to a workspace: src/schemas/application.ts. */
export const Application = ApplicationRecord;
export const ApplicationAssociation = ApplicationLinkRecord;

export const WorkspaceApplication = Type.Object({
  ...Application.properties,
  association: ApplicationAssociation,
  effective_config: Type.Unsafe<Record<string, unknown>>({
    type: 'object',
    additionalProperties: true,
    description:
      'config with config_overrides merged over it (JSON Merge Patch, RFC 7386: objects merge deeply, null removes a key, arrays and scalars replace)',
  }),
  effective_enabled: Type.Boolean({ description: 'enabled as an application and in this workspace' }),
});

const Description = Type.String({ maxLength: 2000 });
const Settings = { config: Type.Optional(JsonObject), metadata: Type.Optional(JsonObject) };

export const CreateApplicationBody = Type.Object(
  {
    name: NonBlank({ maxLength: 200 }),
    description: Type.Optional(Description),
    app_type: Type.Optional(StringEnum(APP_TYPES, { default: 'generic' })),
    enabled: Type.Optional(Type.Boolean({ default: true })),
    ...Settings,
  },
  { additionalProperties: false },
);

// No defaults here: a default would overwrite the stored value of a field the client did not send.
export const UpdateApplicationBody = Type.Object(
  {
    name: Type.Optional(NonBlank({ maxLength: 200 })),
    description: Type.Optional(Nullable(Description)),
    app_type: Type.Optional(AppType),
    enabled: Type.Optional(Type.Boolean()),
    ...Settings,
  },
  { additionalProperties: false, minProperties: 1 },
);

export const LinkApplicationBody = Type.Object(
  { enabled: Type.Optional(Type.Boolean()), config_overrides: Type.Optional(JsonObject) },
  { additionalProperties: false, description: 'fields not given keep their value (a new link: enabled, no overrides)' },
);

export const ListApplicationsQuery = Type.Object(Paging, { additionalProperties: false });

export const ApplicationParams = Type.Object({ app_id: Type.String({ minLength: 1, maxLength: 256 }) });
export const ApplicationWorkspaceParams = Type.Object({
  app_id: Type.String({ minLength: 1, maxLength: 256 }),
  workspace_id: Type.String({ minLength: 1, maxLength: 128 }),
});
