"""A turn's records (TurnRecord: the board before and after, the report) are big JSON values
that PostgreSQL compresses out of line (TOAST). Its default compression, pglz, is slow to
write and to read; lz4 (PostgreSQL 14 and later, where the server was built with it) writes
them in about two thirds of the time, which the turn job spends holding the campaign lock,
and the history pages read them faster. Values already stored keep their compression. Where
lz4 is missing, the columns keep pglz and the migration says so."""

from django.db import migrations

COLUMNS = ("state", "report", "before")


def compression(method: str):
    def apply(apps, schema_editor) -> None:
        if schema_editor.connection.vendor != "postgresql":
            return
        table = schema_editor.quote_name(apps.get_model("campaigns", "TurnRecord")._meta.db_table)
        columns = ", ".join(f"ALTER COLUMN {c} SET COMPRESSION {method}" for c in COLUMNS)
        schema_editor.execute(
            f"DO $$ BEGIN ALTER TABLE {table} {columns}; "
            "EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN "
            f"RAISE NOTICE 'no {method} compression on this server: turn records keep pglz'; "
            "END $$"
        )

    return apply


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0011_audit_filters")]

    operations = [migrations.RunPython(compression("lz4"), compression("pglz"))]
