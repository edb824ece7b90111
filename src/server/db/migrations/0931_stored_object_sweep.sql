-- The sweep of stored objects no row names (docs/decisions/231-stored-object-sweep.md): each pass
-- notes the keys under orders/ and tmp/ that no order_files row names; a key still unnamed a grace
-- period after it was first noted is deleted from the file storage. Keys are noted rather than
-- dated by the store, so an upload under way (its row not yet committed) is never taken, whatever
-- the object store's clock says.
create table stored_object_sweep_marks (
  storage_key text primary key,
  first_seen_at timestamptz not null,
  last_seen_at timestamptz not null
);
