-- Durable reactions (docs/decisions/200-durable-reactions.md).

-- Documents a queued mail carries are rendered by the mail worker when it sends (an invoice's PDF):
-- the row names them; the request that queued the mail does not wait for a PDF.
alter table mail_outbox add column renders jsonb;

-- Stored follow-up work (jobs/job-queue.ts): written in the transaction of the change that causes
-- it, claimed with SKIP LOCKED under a lease, retried with backoff, `failed` after its last attempt
-- (counted on the back office's overview).
create table jobs (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (char_length(kind) between 1 and 100),
  payload jsonb not null default '{}'::jsonb,
  state text not null default 'pending' check (state in ('pending', 'done', 'failed')),
  attempts integer not null default 0,
  run_at timestamptz not null default now(),
  last_error text,
  done_at timestamptz,
  created_at timestamptz not null default now()
);
create index jobs_due on jobs (run_at) where state = 'pending';
create index jobs_failed on jobs (created_at) where state = 'failed';

-- A completed stage is a notice for the customer, mailed in the order's batch (decision 155).
alter table notices drop constraint notices_kind_check;
alter table notices add constraint notices_kind_check
  check (kind in ('message', 'review_opened', 'review_decided', 'review_comment', 'support_reply', 'stage_completed'));
