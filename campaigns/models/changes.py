"""Every write to anything a campaign's pages show leaves a row here, so the page
cache (campaigns/web/page_cache.py) can tell a page it stored is still the page it would
render: a campaign's version is `(max(id), count(*))` of its rows.

Append-only and without a foreign key on purpose. The first attempt kept one version row per
campaign that every writing transaction UPDATEd: each writer then held that row's lock from
the middle of its work to its commit, and the reminders job deadlocked with the turn job
(fault matrix row 7). Inserting into a table with no unique constraint and no foreign key
never waits on anybody (a foreign key would take a KEY SHARE lock on the campaign row, which
the turn job holds FOR UPDATE).

Why `(max, count)` and not `max` alone: a transaction that drew a lower id can commit after
one that drew a higher id, which leaves the max unchanged; the count still moves. Pruning
(services/page_versions.py) deletes old rows and inserts a fresh marker in one transaction,
so the max after a pruning is higher than any before and no earlier pair can come back.

The rows are written by database triggers, not by Python: a statement-level trigger per
table on PostgreSQL (transition tables: one row per campaign a statement touched, whatever
the statement was: save(), update(), bulk_create, COPY, raw SQL), a row-level one on SQLite
(one writer at a time; SQLite has no statement-level triggers). `CAMPAIGN_OF` says, table
by table, how to reach the campaign from a changed row; `triggers_sql` turns it into the
triggers (migration 0019 creates them, tests/web/test_page_cache.py checks that
every table of the app is listed or exempt)."""

from __future__ import annotations

from django.db import models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

TABLE = "campaigns_campaignchange"


class CampaignChange(models.Model):
    id = models.BigAutoField(primary_key=True)
    # No ForeignKey: see the module's docstring (no lock on the campaign row).
    campaign_id = models.IntegerField()

    class Meta:
        indexes = [models.Index(fields=["campaign_id", "id"], name="campaign_change_by_campaign")]

    def __str__(self) -> str:
        return f"change {self.pk} of campaign {self.campaign_id}"


# table -> (SQL giving the campaign ids of the changed rows, read from a table aliased `r`:
# the transition table on PostgreSQL, a one-row SELECT of NEW/OLD on SQLite).
_BY_MEMBER = "SELECT m.campaign_id AS cid FROM {r} JOIN campaigns_membership m ON m.id = r.{col}"
_BY_BOARD = "SELECT b.campaign_id AS cid FROM {r} JOIN campaigns_board b ON b.id = r.board_id"
_BY_TURN = "SELECT t.campaign_id AS cid FROM {r} JOIN campaigns_turn t ON t.id = r.turn_id"
_BY_USER = "SELECT m.campaign_id AS cid FROM {r} JOIN campaigns_membership m ON m.user_id = r.{col}"
_OWN = "SELECT r.campaign_id AS cid FROM {r}"

CAMPAIGN_OF: dict[str, str] = {
    "campaigns_campaign": "SELECT r.id AS cid FROM {r}",
    "campaigns_membership": _OWN,
    "campaigns_alignment": _OWN,
    "campaigns_auditentry": _OWN,
    "campaigns_board": _OWN,
    "campaigns_invitation": _OWN,
    "campaigns_election": _OWN,
    "campaigns_conversation": _OWN,
    "campaigns_announcement": _OWN,
    "campaigns_turn": _OWN,
    "campaigns_intelenvelope": _OWN,
    "campaigns_structure": _BY_BOARD,
    "campaigns_department": _BY_BOARD,
    "campaigns_link": _BY_BOARD,
    "campaigns_office": _BY_BOARD,
    "campaigns_turnrecord": _BY_BOARD,
    "campaigns_classicboard": _BY_BOARD,
    "campaigns_order": _BY_TURN,
    "campaigns_orderlog": _BY_TURN,
    "campaigns_playerturn": _BY_TURN,
    "campaigns_goalprogress": _BY_TURN,
    "campaigns_knowledge": _BY_MEMBER.replace("{col}", "player_id"),
    "campaigns_notice": _BY_MEMBER.replace("{col}", "player_id"),
    "campaigns_shtick": _BY_MEMBER.replace("{col}", "member_id"),
    "campaigns_goal": _BY_MEMBER.replace("{col}", "member_id"),
    "campaigns_dossierentry": _BY_MEMBER.replace("{col}", "member_id"),
    "campaigns_contingencyenvelope": _BY_MEMBER.replace("{col}", "member_id"),
    "campaigns_participant": _BY_MEMBER.replace("{col}", "member_id"),
    "campaigns_message": _BY_MEMBER.replace("{col}", "sender_id"),
    "campaigns_intelenvelope_audience": _BY_MEMBER.replace("{col}", "membership_id"),
    # A user's name, language and time zone show on every page of each of their campaigns
    # (their own navbar, and others' pages where they are named).
    "campaigns_profile": _BY_USER.replace("{col}", "user_id"),
    "auth_user": _BY_USER.replace("{col}", "id"),
}

# Tables no campaign page shows, with why.
NOT_SHOWN = {
    "campaigns_campaignchange": "the versions themselves",
    "campaigns_notificationsettings": "the mail settings page only, not cached",
    "campaigns_digestclock": "when the mail digest last went, never shown",
}


def _trigger_name(table: str, event: str) -> str:
    return f"cc_{table.removeprefix('campaigns_')}_{event}"[:63]


def triggers_sql(vendor: str) -> list[str]:
    """The statements creating every trigger (after dropping any of the same name)."""
    statements: list[str] = []
    for table, campaign_of in CAMPAIGN_OF.items():
        if vendor == "postgresql":
            statements += _postgresql(table, campaign_of)
        elif vendor == "sqlite":
            statements += _sqlite(table, campaign_of)
        else:  # pragma: no cover - the site runs on these two only
            raise NotImplementedError(vendor)
    return statements


def triggers_recreate(apps: object, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """For a migration's RunPython: every trigger, made (0019) or made again (each statement
    drops any trigger of the same name first). On SQLite, a migration that changes a column
    (AlterField, RemoveField...) copies the table into a new one and drops the old, and the old
    table's triggers go with it; such a migration ends with this step (0021 does).
    tests/web/test_page_cache.py fails when a watched table lacks a trigger."""
    for statement in triggers_sql(schema_editor.connection.vendor):
        schema_editor.execute(statement)


def drop_sql(vendor: str) -> list[str]:
    statements: list[str] = []
    for table in CAMPAIGN_OF:
        for event in ("insert", "update", "update_old", "delete"):
            name = _trigger_name(table, event)
            if vendor == "postgresql":
                statements.append(f"DROP TRIGGER IF EXISTS {name} ON {table}")
                statements.append(f"DROP FUNCTION IF EXISTS {name}()")
            else:
                statements.append(f"DROP TRIGGER IF EXISTS {name}")
    return statements


def _postgresql(table: str, campaign_of: str) -> list[str]:
    # One function per table and transition table: a transition table's name is fixed when
    # the trigger is created. UPDATE looks at the rows after (and, for a row moved to
    # another campaign, before) the statement.
    out = []
    for event, when, referencing in (
        ("insert", "INSERT", "NEW TABLE AS r"),
        ("update", "UPDATE", "NEW TABLE AS r"),
        ("update_old", "UPDATE", "OLD TABLE AS r"),
        ("delete", "DELETE", "OLD TABLE AS r"),
    ):
        name = _trigger_name(table, event)
        select = campaign_of.format(r="r")
        out.append(
            f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ "
            f"BEGIN INSERT INTO {TABLE} (campaign_id) SELECT DISTINCT c.cid FROM ({select}) "
            f"AS c WHERE c.cid IS NOT NULL; RETURN NULL; END $$"
        )
        out.append(f"DROP TRIGGER IF EXISTS {name} ON {table}")
        out.append(
            f"CREATE TRIGGER {name} AFTER {when} ON {table} REFERENCING {referencing} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {name}()"
        )
    return out


def _sqlite(table: str, campaign_of: str) -> list[str]:
    out = []
    columns = _SQLITE_COLUMNS[table]
    for event, when, row in (
        ("insert", "INSERT", "NEW"),
        ("update", "UPDATE", "NEW"),
        ("update_old", "UPDATE", "OLD"),
        ("delete", "DELETE", "OLD"),
    ):
        name = _trigger_name(table, event)
        one_row = "(SELECT " + ", ".join(f"{row}.{c} AS {c}" for c in columns) + ") AS r"
        select = campaign_of.format(r=one_row)
        out.append(f"DROP TRIGGER IF EXISTS {name}")
        out.append(
            f"CREATE TRIGGER {name} AFTER {when} ON {table} FOR EACH ROW BEGIN "
            f"INSERT INTO {TABLE} (campaign_id) SELECT DISTINCT c.cid FROM ({select}) AS c "
            f"WHERE c.cid IS NOT NULL; END"
        )
    return out


# The columns CAMPAIGN_OF's SQL reads from a changed row (SQLite copies them out of NEW/OLD).
_SQLITE_COLUMNS: dict[str, tuple[str, ...]] = {
    table: tuple(
        col
        for col in (
            "id",
            "campaign_id",
            "board_id",
            "turn_id",
            "player_id",
            "member_id",
            "sender_id",
            "membership_id",
            "user_id",
        )  # fmt: skip
        if f"r.{col}" in sql
    )
    for table, sql in CAMPAIGN_OF.items()
}
