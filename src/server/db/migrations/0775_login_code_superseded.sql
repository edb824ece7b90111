-- A code retired by a newer one records it, so "this code was replaced by a
-- newer one" is told from the row itself (decision 075), not from comparing two clocks.
alter table login_codes add column superseded_at timestamptz;
