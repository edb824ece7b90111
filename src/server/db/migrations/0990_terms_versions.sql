-- The wording of every Terms and Conditions version a customer accepted
-- (docs/decisions/272-accepted-terms-readable.md): an order keeps only the version (a hash of the
-- wording), so the wording itself is kept here, written with the first acceptance of that version.
-- `wording` is the canonical JSON the version was computed from (src/domain/terms.ts).
create table terms_versions (
  version text primary key,
  wording text not null,
  created_at timestamptz not null default now()
);
