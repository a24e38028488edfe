"""Alembic's environment, configured in code (no alembic.ini): the connection comes from
`desmoche_ref.store.db.upgrade`, or a URL for the offline and autogenerate commands."""

from alembic import context
from sqlalchemy import create_engine
from sqlmodel import SQLModel

from desmoche_ref.store.schema import models  # (registers the tables)

target_metadata = SQLModel.metadata


def run(connection):
    models.on_dialect(connection.dialect.name)
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite",  # SQLite ALTERs
                      compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is not None:
    run(connection)
else:
    with create_engine(context.config.get_main_option("sqlalchemy.url")).begin() as conn:
        run(conn)
