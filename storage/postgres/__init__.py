"""The PostgreSQL backend: the same store protocols (`bot/features/<feature>/store.py`) on a
shared server.

`PgDatabase` owns the pool and the migrations; each `Pg*Store` sits beside its SQLite sibling
in `storage/<feature>/`, both sharing their columns and row decoders from a neutral
`storage/<feature>/rows.py`. Every store has a PostgreSQL implementation (`storage.backend`
picks one per database).
"""
