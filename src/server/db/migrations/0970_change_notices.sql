-- A change request joins the order's batched notices (docs/decisions/260-change-events-and-waiting.md):
-- the founder hears of a requested change, the customer of a quote waiting for their decision.
alter table notices drop constraint notices_kind_check;
alter table notices add constraint notices_kind_check
  check (kind in ('message', 'review_opened', 'review_decided', 'review_comment', 'support_reply', 'stage_completed', 'change_requested', 'change_quoted'));
