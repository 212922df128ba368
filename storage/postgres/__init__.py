"""The PostgreSQL backend: the same store protocols (`storage.interfaces`) on a shared server.

`PgDatabase` owns the pool and the migrations; each `Pg*Store` mirrors its SQLite sibling,
reusing its columns and row decoders. Every store has a PostgreSQL implementation
(`storage.backend` picks one per database).
"""
