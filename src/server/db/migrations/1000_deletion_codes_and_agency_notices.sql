-- A code mailed to confirm an account deletion says so and never signs anyone in
-- (docs/decisions/275-account-deletion-up-front.md).
alter table login_codes drop constraint login_codes_purpose_check;
alter table login_codes add constraint login_codes_purpose_check check (purpose in ('login', 'signup', 'delete'));

-- A submitted brief and a customer's new files are notices for the agency, mailed in the order's
-- batch to the founder (docs/decisions/277-founder-notices-brief-and-files.md).
alter table notices drop constraint notices_kind_check;
alter table notices add constraint notices_kind_check
  check (kind in ('message', 'review_opened', 'review_decided', 'review_comment', 'support_reply', 'stage_completed', 'change_requested', 'change_quoted', 'brief_submitted', 'customer_file'));

-- A customer's file erased with their account keeps an empty row where another row points to it:
-- no size, and the sha-256 only when the file is part of an approved design round
-- (docs/decisions/275-account-deletion-up-front.md).
alter table order_files drop constraint order_files_size_check;
alter table order_files add constraint order_files_size_check check (size >= 0);
alter table order_files drop constraint order_files_sha256_check;
alter table order_files add constraint order_files_sha256_check check (sha256 ~ '^[0-9a-f]{64}$' or sha256 = '');
