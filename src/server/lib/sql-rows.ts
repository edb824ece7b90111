/**
 * The rows of `db.execute(sql…)`: the driver-neutral Db types its result as unknown, while PGlite and
 * node-postgres both answer `{ rows }`. The caller names the row's shape, as the SQL does.
 */
export const sqlRows = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
