import type { components } from './generated/openapi.js';

export { MemdClient } from './client.js';
export type { ClientOptions, CallOptions, Answer, RawBody } from './transport.js';
export type { RequestOptions } from './request.js';
export type { RetryOptions } from './retry.js';
export {
  MemdError,
  BadRequestError,
  ValidationError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  GoneError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  RateLimitedError,
  ServerError,
  NotImplementedError,
  ServiceUnavailableError,
  ConnectionError,
  TimeoutError,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetail,
} from './errors.js';
export type { Endpoint, Path, MethodOf, Operation, JsonBody, Query, Result, Content } from './operations.js';
export type { ExportLine, ExportQuery, ImportReport, ImportSource } from './resources/workspaces.js';
export type { UploadFields, UploadOptions, UploadResult, UploadSource } from './resources/documents.js';
export type { Readiness } from './resources/service.js';
export type { components, paths } from './generated/openapi.js';

/** A stored memory, as every route returns it. */
export type Memory = components['schemas']['Memory'];
// The other records every route returns alike, each declared once on the server (src/schemas).
export type Workspace = components['schemas']['Workspace'];
export type Context = components['schemas']['Context'];
export type Association = components['schemas']['Association'];
export type Session = components['schemas']['Session'];
export type WorkingMemoryEntry = components['schemas']['WorkingMemoryEntry'];
export type Thread = components['schemas']['Thread'];
export type Message = components['schemas']['Message'];
export type ApiKey = components['schemas']['ApiKey'];
export type Contradiction = components['schemas']['Contradiction'];
export type Application = components['schemas']['Application'];
export type ApplicationLink = components['schemas']['ApplicationLink'];
export type DataProvider = components['schemas']['DataProvider'];
export type Skill = components['schemas']['Skill'];
export type SkillFileInfo = components['schemas']['SkillFileInfo'];
export type McpServer = components['schemas']['McpServer'];
export type Document = components['schemas']['Document'];
export type DocumentPage = components['schemas']['DocumentPage'];
export type IngestionJob = components['schemas']['IngestionJob'];
export type KnowledgebaseArticle = components['schemas']['KnowledgebaseArticle'];
export type KnowledgebaseJob = components['schemas']['KnowledgebaseJob'];
export type ErasureAudit = components['schemas']['ErasureAudit'];
export type EntityCard = components['schemas']['EntityCard'];
