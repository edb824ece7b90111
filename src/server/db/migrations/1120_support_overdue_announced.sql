-- When the support pass last announced that a request waits past the first-response target
-- (support/jobs.ts announceOverdueRequests, docs/decisions/350-support-overdue-push.md): once per
-- wait, so a later customer message (a new waiting_since) is announced again.
alter table support_requests add column overdue_announced_at timestamptz;
