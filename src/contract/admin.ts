import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '../domain/admin.ts';
import { defineOperation } from './operation.ts';

// Back office: shapes shared by every /api/v1/admin route. Times travel as ISO strings.

export const ADMIN_API = 'admin';

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});

export const pageInfo = z.object({ page: z.number(), pageSize: z.number(), total: z.number() });
export type PageInfo = z.infer<typeof pageInfo>;

/** Path parameter of any object addressed by its uuid. */
export const uuidParams = z.object({ id: z.uuid() });

export const okResponse = z.object({ success: z.literal(true) });

export { AUDIT_ACTIONS, AUDIT_ENTITIES, type AuditAction, type AuditEntity } from '../domain/admin.ts';

export const auditQuery = pageQuery.extend({
  action: z.enum(AUDIT_ACTIONS).optional(),
  entity: z.enum(AUDIT_ENTITIES).optional(),
  entityId: z.string().trim().min(1).max(200).optional(),
  actor: z.string().trim().min(1).max(200).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditEntry = z.object({
  id: z.string(),
  at: z.string(),
  actorUserId: z.string().nullable(),
  actorEmail: z.string(),
  /** Additive: the actor's role when they acted, 'admin' (the owner) or 'staff'; null for older entries. */
  actorRole: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditListResponse = z.object({ items: z.array(auditEntry), pageInfo });
export type AuditListResponse = z.infer<typeof auditListResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** Audit log of admin actions, newest first, filterable */
export const getAdminAudit = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/audit',
  query: auditQuery,
  responses: { 200: auditListResponse },
});
