"""Alembic environment for quotetui.

At run time quotetui passes an open connection in ``config.attributes["connection"]`` (see
``quotetui/store/migrate.py``). Developers generating a migration run, from the repository root::

    alembic -c db/alembic.ini revision --autogenerate -m "what changed"

which uses the ``sqlalchemy.url`` of ``db/alembic.ini`` (a scratch SQLite file).
"""

from alembic import context
from sqlalchemy import Connection, engine_from_config, pool

from quotetui.store import stamps
from quotetui.store.models import metadata

config = context.config


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=True,  # SQLite cannot ALTER most things; batch mode rebuilds tables
        transactional_ddl=True,  # quotetui begins the transaction itself; all or nothing
        compare_type=True,
    )


def _run(connection: Connection) -> None:
    """The migrations, with the offer stamps' triggers out of the way while they run (``store/stamps.py``)."""
    stamps.drop(connection)
    context.run_migrations()
    stamps.install(connection)


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        _run(connection)
        return
    engine = engine_from_config(
        config.get_section(config.config_ini_section, {}), prefix="sqlalchemy.", poolclass=pool.NullPool
    )
    with engine.connect() as conn:
        _configure(conn)
        with context.begin_transaction():
            _run(conn)


if context.is_offline_mode():
    raise SystemExit("quotetui migrations run online only")
run_migrations_online()
