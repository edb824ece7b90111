import { z } from 'zod';
import { BRIEF_ANSWER_KEYS_MAX, BRIEF_LIMITS } from '../domain/brief.ts';
import { multiLine } from './text-policy.ts';
import { defineOperation } from './operation.ts';
import { orderParams } from './admin-orders.ts';

// The brief (intake form) of an order (decision 145). Customer:
// GET/PUT/PATCH /api/v1/orders/{orderId}/brief; founder: GET /api/v1/admin/orders/{orderId}/brief.
// PUT replaces every answer; PATCH changes only the answers it names (docs/decisions/270-brief-partial-saves.md).

/** The public order id (e.g. ORDABC123); anything else is answered like an unknown order (404). */
export const briefParams = z.object({ orderId: z.string().min(1).max(64) });

export const briefQuestionSchema = z.object({
  id: z.string(),
  label: z.string(),
  kind: z.enum(['text', 'multiline', 'list', 'urls', 'choice']),
  required: z.boolean(),
  /** For `choice`: the values to store and what to show. */
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
  /** A follow-up question: shown only while question `id` is answered `value` (e.g. the domain once "I already have a domain" is chosen). */
  followUpOf: z.object({ id: z.string(), value: z.string() }).optional(),
});

const answer = z.union([z.string(), z.array(z.string())]);

export const briefResponse = z.object({
  questions: z.array(briefQuestionSchema),
  /** null until the customer first saves something. */
  brief: z.object({ answers: z.record(z.string(), answer), submittedAt: z.string().nullable() }).nullable(),
  /** True once "UI Started" is completed: the brief is then read-only. */
  locked: z.boolean(),
});
export type BriefResponse = z.infer<typeof briefResponse>;

// A paragraph answer may hold line breaks, so every string value is multi-line for the text policy
// (decision 130: its walk reaches a record's values and a union's options); single-line kinds are
// held to one line by the question check. List items (array elements) stay single-line.
const answersRecord = z
  .record(
    z.string().min(1).max(64),
    z.union([
      multiLine(z.string().max(BRIEF_LIMITS.multiline + 100)),
      z.array(z.string().max(BRIEF_LIMITS.url)).max(BRIEF_LIMITS.items * 2),
    ]),
  )
  .refine((a) => Object.keys(a).length <= BRIEF_ANSWER_KEYS_MAX, { message: `At most ${BRIEF_ANSWER_KEYS_MAX} answers.` });

export const briefPutBody = z.object({
  answers: answersRecord,
  /** Submits the brief (once; later saves keep the first submission time). Without it: a draft. */
  submit: z.boolean().optional(),
});
export type BriefPutBody = z.infer<typeof briefPutBody>;

/**
 * PATCH: only the answers named here change — an empty answer ("" or []) clears that one, every
 * answer not named is kept as stored. Two tabs or devices saving different answers both keep theirs.
 */
export const briefPatchBody = z.object({
  answers: answersRecord,
  /** As for PUT: submits the brief, checked against the answers after this change. */
  submit: z.boolean().optional(),
});
export type BriefPatchBody = z.infer<typeof briefPatchBody>;
// Operations (docs/decisions/280-contract-operations.md).

/** The brief questions and your answers so far */
export const getOrdersBrief = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/brief',
  params: briefParams,
  responses: { 200: briefResponse },
});

/** Saves your brief as a draft, or submits it (submit: true); read-only once "UI Started" is completed (409) */
export const putOrdersBrief = defineOperation({
  method: 'PUT',
  path: '/api/v1/orders/:orderId/brief',
  params: briefParams,
  body: briefPutBody,
  responses: { 200: briefResponse },
});

/** An order's brief (questions and answers) */
export const getAdminOrdersBrief = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:id/brief',
  params: orderParams,
  responses: { 200: briefResponse },
});

/** Changes only the answers it names (docs/decisions/270-brief-partial-saves.md); read-only once "UI Started" is completed (409) */
export const patchOrdersBrief = defineOperation({
  method: 'PATCH',
  path: '/api/v1/orders/:orderId/brief',
  params: briefParams,
  body: briefPatchBody,
  responses: { 200: briefResponse },
});
