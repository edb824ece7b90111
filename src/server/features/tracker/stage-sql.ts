import { DELIVERY_STAGE } from '../../../domain/tracker.ts';

// The order's completed stages as the signed-in reads show them, each value as ONE SQL form for the
// order whose id is `orderIdSql` (e.g. `o.id`), folded into the read's own statement
// (docs/decisions/341-one-rule-per-derived-value.md). Reads by order_stages' primary key
// (order_id, stage).

/**
 * The completed stages as json `[[stage, completed at in epoch ms, note], …]` by stage: arrays and a
 * number, the cheapest json for the reader to parse (docs/decisions/291-signed-in-reads-one-statement.md).
 */
export const stagesJsonSql = (orderIdSql: string) =>
  `(select coalesce(json_agg(json_build_array(s.stage, floor(extract(epoch from s.completed_at) * 1000)::bigint, s.note) order by s.stage), '[]'::json)
      from order_stages s where s.order_id = ${orderIdSql})`;

/** How many stages are completed (an int). */
export const stageCountSql = (orderIdSql: string) => `(select count(*)::int from order_stages s where s.order_id = ${orderIdSql})`;

/** When the delivery stage was completed (a timestamptz), null before. */
export const deliveredAtSql = (orderIdSql: string) =>
  `(select s.completed_at from order_stages s where s.order_id = ${orderIdSql} and s.stage = ${Number(DELIVERY_STAGE)})`;
