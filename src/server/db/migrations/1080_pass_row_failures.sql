-- Isolated background work (docs/decisions/339-isolated-job-passes.md): a row one of the scheduled
-- passes claims and cannot finish is parked here with its attempts and the time of its next try,
-- so the rows behind it go on; after the last try it stays `failed`, counted on the overview with
-- a retry. A row that succeeds (or is retried by the owner) loses its entry.
create table pass_row_failures (
  id uuid primary key default gen_random_uuid(),
  pass text not null check (char_length(pass) between 1 and 60),
  row_key text not null check (char_length(row_key) between 1 and 500),
  attempts integer not null default 0,
  state text not null default 'retrying' check (state in ('retrying', 'failed')),
  retry_at timestamptz not null,
  last_error text,
  updated_at timestamptz not null default now(),
  unique (pass, row_key)
);
create index pass_row_failures_failed on pass_row_failures (updated_at) where state = 'failed';
