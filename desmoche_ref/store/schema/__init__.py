"""The book's schema: its tables (models.py), each JSON column's codec (codecs.py), the rows as
values (records.py), the store's names and constants (terms.py), and the migrations that make
the tables (migrations/, Alembic, configured in store/db.py)."""
