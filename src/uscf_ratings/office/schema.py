"""The ratings database: tables, as SQLAlchemy Core metadata.

The database stores inputs and results and never holds rating logic: an event's input
(event JSON) is kept whole, and every rating result row keeps the state after it, so the
history can be read, listed, explained (by rating a section again) and re-rated.
Migrations (office/migrations) create these tables; this module is their description for queries.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Date,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    text,
    true,
)

metadata = MetaData()

members = Table(
    "members", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", Text, nullable=False, default=""),
    Column("birth_date", Date),
    Column("adult", Boolean),
    Column("state", String(8)),
    Column("fide_rating", Float),
    Column("fide_date", Date),
    Column("cfc_rating", Float),
    Column("cfc_date", Date),
    Column("canadian_resident", Boolean),
    #: set when this id was merged into another: the same person
    Column("merged_into", String(32), ForeignKey("members.id")),
    #: merged ids, followed on every page: the merged members alone (0006)
    Index("members_merged", "merged_into", sqlite_where=text("merged_into IS NOT NULL"),
          postgresql_where=text("merged_into IS NOT NULL")),
)

#: A member's standing per system before any event this database rated (imported).
baselines = Table(
    "baselines", metadata,
    Column("member_id", String(32), ForeignKey("members.id"), primary_key=True),
    Column("system", String(2), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("as_of", Date),
    Column("wins", Integer), Column("draws", Integer), Column("losses", Integer),
    Column("events3", Integer),
    Column("peak", Float),
    Column("olm", Boolean, nullable=False, default=False),
    Column("games_above_2200", Integer),
)

#: Members' histories as US Chess published them (`uscf db import-history`, 0007): one
#: row a section and system, as published. A member's rating before the first section
#: in the pool is taken from it (office/history.py).
published_history = Table(
    "published_history", metadata,
    Column("member_id", String(32), ForeignKey("members.id"), primary_key=True),
    Column("system", String(2), primary_key=True),
    Column("event_id", String(64), primary_key=True),
    Column("section", Integer, primary_key=True),
    Column("event_name", Text, nullable=False),
    Column("section_name", Text, nullable=False),
    Column("start_date", Date, nullable=False),
    Column("end_date", Date, nullable=False),
    Column("pre", Float),  #: None: unrated before the section
    Column("post", Float, nullable=False),
    Column("post_games", Integer),  #: provisional game count after; None: established
    Column("source", Text, nullable=False),  #: the file it was imported from
)

#: Titles a member had earned before the pool's history (a member list, an imported
#: history: 0009), by their names in US Chess's records (AwardType); core/titles.py
#: starts from them.
member_titles = Table(
    "member_titles", metadata,
    Column("member_id", String(32), ForeignKey("members.id"), primary_key=True),
    Column("title", String(32), primary_key=True),  #: "CandidateMaster", "NationalMaster"...
    Column("earned", Date),  #: None: the date is not given
    Column("source", Text, nullable=False),  #: the file it was imported from
)

#: Norms a member had earned before the pool's history, by level (0009): the count at
#: that level, not counting the higher ones (core/titles.Earned).
member_norms = Table(
    "member_norms", metadata,
    Column("member_id", String(32), ForeignKey("members.id"), primary_key=True),
    Column("code", String(4), primary_key=True),  #: 'N:4' ... 'N:S'
    Column("count", Integer, nullable=False),
    Column("source", Text, nullable=False),
)

#: Floors set by hand (prize floors, granted match requests), effective from a date.
floors = Table(
    "floors", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("member_id", String(32), ForeignKey("members.id"), nullable=False),
    Column("system", String(2), nullable=False),
    Column("floor", Float, nullable=False),
    Column("effective", Date, nullable=False),
    Column("reason", Text, nullable=False, default=""),
)

events = Table(
    "events", metadata,
    Column("id", String(64), primary_key=True),
    Column("name", Text, nullable=False, default=""),
    Column("start_date", Date, nullable=False),
    Column("end_date", Date, nullable=False),
    Column("source", Text, nullable=False),  #: the event JSON it was rated from
    Column("submitted_at", DateTime, nullable=False),
    Column("corrections", Integer, nullable=False, default=0),
    #: where it was played, from the event's details (the source has them all), for
    #: finding events by place: the city as given, the state upper-cased; NULL when the
    #: file gives none, and in rows stored before 0004
    Column("city", Text),
    Column("state", Text),
    #: its content's fingerprint (office/fingerprint.py), to refuse the same report
    #: stored twice under two ids (0008); NULL only where the stored source cannot be
    #: read back
    Column("fingerprint", String(64)),
    Index("events_state", "state"),
    Index("events_fingerprint", "fingerprint"),
    Index("events_latest", "end_date", "id"),  #: the events list, the latest first
)

#: One row per section, in rating order: (end date, start date, event id, number).
sections = Table(
    "sections", metadata,
    Column("event_id", String(64), ForeignKey("events.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("name", Text, nullable=False, default=""),
    Column("start_date", Date, nullable=False),
    Column("end_date", Date, nullable=False),
    Column("systems", String(32), nullable=False),
    Column("rule_set", Date, nullable=False),
    Index("sections_order", "end_date", "start_date", "event_id", "number"),
)

#: the foreign keys that PostgreSQL keeps as triggers checked once a statement, not as
#: keys (migration 0011 says why and how): (table, column); SQLite has them as keys
KEPT_BY_TRIGGERS_ON_POSTGRESQL = frozenset({("ratings", "event_id"), ("ratings", "member_id")})

#: A rated player in one system of one section: the history.
ratings = Table(
    "ratings", metadata,
    Column("event_id", String(64), ForeignKey("events.id", ondelete="CASCADE"), primary_key=True),
    Column("section", Integer, primary_key=True),
    Column("member_id", String(32), ForeignKey("members.id"), primary_key=True),
    Column("system", String(2), primary_key=True),
    Column("end_date", Date, nullable=False),
    Column("start_date", Date, nullable=False),
    Column("pre", Float),
    Column("pre_games", Integer),
    Column("post", Float),
    Column("games_after", Integer),
    Column("floor", Float),  #: the floor in force after the event
    #: the event's rated games won, drawn and lost (NULL in rows stored before 0003)
    Column("wins", Integer), Column("draws", Integer), Column("losses", Integer),
    #: the member's highest norm toward a title in the section, as the crosstable's code
    #: ('N:C'), on the Regular row alone: one norm a member and section, earned from the
    #: post-event Regular ratings (core/norms.py); NULL for none, on every other system's
    #: row, and in rows stored before 0009
    Column("norm", String(4)),
    # The state after the event, which a later event starts from (0010; a JSON text
    # before): the `Rating` whose rating, N and date are ``post``, ``games_after`` and
    # ``end_date``, and whose other fields are these columns (NULL: not known, as the
    # model's None). store.STATE_COLUMNS reads them in the order of Rating's fields.
    Column("wins_after", Integer), Column("draws_after", Integer),
    Column("losses_after", Integer),
    Column("events3_after", Integer),  #: events of three or more games
    Column("peak_after", Float),  #: the highest established rating, the event's included
    Column("floor_by_hand", Float),  #: a floor set by hand or given, carried on
    Column("floor_lowered_from", Float), Column("floor_lowered_to", Float),
    Column("olm", Boolean, nullable=False, server_default=false()),
    Column("above_2200_after", Integer),  #: games played while established above 2200
    #: how many match changes the state carries (rating_match_changes holds them)
    Column("match_changes", Integer, nullable=False, server_default=text("0")),
    #: False where N was assumed (the file gave the rating without it), carried on
    Column("games_known", Boolean, nullable=False, server_default=true()),
    # No explanation is stored: office/explain.py rebuilds it by rating the section again.
    Index("ratings_member", "member_id", "system", "end_date"),
    Index("ratings_order", "end_date", "start_date", "event_id", "section"),
)

#: The match changes a rating's state after the event carries (section 7's limits on
#: the net change of a member's matches read them), in order: rows only for the rare
#: states that carry any (``ratings.match_changes`` counts them; 0010). They go with
#: their rating's row.
rating_match_changes = Table(
    "rating_match_changes", metadata,
    Column("event_id", String(64), primary_key=True),
    Column("section", Integer, primary_key=True),
    Column("member_id", String(32), primary_key=True),
    Column("system", String(2), primary_key=True),
    Column("position", Integer, primary_key=True),  #: 1 for the earliest
    Column("date", Date, nullable=False),
    Column("change", Float, nullable=False),
    ForeignKeyConstraint(["event_id", "section", "member_id", "system"],
                         ["ratings.event_id", "ratings.section", "ratings.member_id",
                          "ratings.system"], ondelete="CASCADE"),
)

audit = Table(
    "audit", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", DateTime, nullable=False),
    Column("action", String(32), nullable=False),
    Column("detail", Text, nullable=False),
)

tokens = Table(
    "tokens", metadata,
    Column("name", String(64), primary_key=True),
    Column("hash", String(128), nullable=False),
    Column("created_at", DateTime, nullable=False),
    UniqueConstraint("hash"),
)
