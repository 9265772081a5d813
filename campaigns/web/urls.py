"""Every URL of the site, by area: each area's views are in campaigns/web/<area>.py. The
busiest campaign pages go through the page cache (`cached_page`, web/page_cache.py)."""

from django.urls import path

from campaigns.accounts.web import profile
from campaigns.classic.web import editor as classic_editor
from campaigns.classic.web import orders as classic_orders
from campaigns.elections.web import elections, office_shticks
from campaigns.history.web import history
from campaigns.intrigue.web import intrigue, intrigue_gm
from campaigns.press.web import press, press_gm
from campaigns.web import (
    campaign,
    editor,
    members,
    order_menu,
    orders,
    players,
    reports,
    rules,
    running,
    setup,
)
from campaigns.web.page_cache import cached_page

urlpatterns = [
    path("", campaign.home, name="home"),
    path("rules/", rules.how_to_play, name="how_to_play"),
    path("c/<slug:slug>/", cached_page(campaign.campaign), name="campaign"),
    path("c/<slug:slug>/board/<slug:board_slug>/", cached_page(campaign.board), name="board"),
    path("c/<slug:slug>/start/", campaign.start, name="campaign_start"),
    path("c/<slug:slug>/pause/", campaign.pause, name="campaign_pause"),
    path("c/<slug:slug>/resume/", campaign.resume, name="campaign_resume"),
    path("c/<slug:slug>/process/", campaign.process, name="turn_process"),
    path("c/<slug:slug>/deadline/", campaign.extend_deadline, name="extend_deadline"),
]

# Turn reports, verify-the-dice and mail settings (web/reports.py).
TURN = "c/<slug:slug>/turn/<int:number>/"
urlpatterns += [
    path(f"{TURN}report/", cached_page(reports.turn_report), name="turn_report"),
    path(f"{TURN}report/note/<int:order_id>/", reports.turn_report_note, name="turn_report_note"),
    path(f"{TURN}verify/", reports.verify_dice, name="verify_dice"),
    path("settings/notifications/", reports.notification_settings, name="notification_settings"),
]

# The weekly orders (RULES R40-R47): web/orders.py.
ORDERS = "c/<slug:slug>/orders/"
urlpatterns += [
    path(ORDERS, cached_page(orders.orders), name="orders"),
    path(f"{ORDERS}<slug:board_slug>/new/<slug:kind>/", orders.order_new, name="order_new"),
    # The orders each department can give, for the board map's menu (JSON).
    path(
        f"{ORDERS}<slug:board_slug>/map-menu.json", order_menu.order_map_menu, name="order_map_menu"
    ),  # fmt: skip
    # RULES part 10: a classic board's order forms (classic/web/orders.py).
    path(
        f"{ORDERS}<slug:board_slug>/classic/<slug:kind>/",
        classic_orders.classic_order,
        name="classic_order",
    ),
    path(f"{ORDERS}<int:pk>/edit/", orders.order_edit, name="order_edit"),
    path(f"{ORDERS}<int:pk>/cancel/", orders.order_cancel, name="order_cancel"),
    path(f"{ORDERS}<int:pk>/shift/", orders.order_shift, name="order_shift"),
    path(f"{ORDERS}reinforce/<int:attempt_pk>/", orders.order_reinforce, name="order_reinforce"),
    path(f"{ORDERS}ready/", orders.turn_ready, name="turn_ready"),
    path("c/<slug:slug>/notices/read/", orders.notices_read, name="notices_read"),
    path(
        f"{ORDERS}<slug:board_slug>/defence/<slug:dept_slug>/",
        orders.department_defence,
        name="department_defence",
    ),
]

# The GM's set-up (web/setup.py): a new campaign, settings, alignments (R5), audit log (R53).
urlpatterns += [
    path("new/", setup.campaign_new, name="campaign_new"),
    path("c/<slug:slug>/settings/", setup.campaign_settings, name="campaign_settings"),
    path("c/<slug:slug>/alignments/", setup.campaign_alignments, name="campaign_alignments"),
    path("c/<slug:slug>/audit/", setup.audit_log, name="audit_log"),
    path("c/<slug:slug>/boards/import/", setup.board_import, name="board_import"),
    path(
        "c/<slug:slug>/board/<slug:board_slug>/export.<str:fmt>",
        setup.board_export,
        name="board_export",
    ),
]

# Players and invitation links (web/players.py).
urlpatterns += [
    path("c/<slug:slug>/players/", players.players, name="players"),
    path(
        "c/<slug:slug>/players/invitations/<int:pk>/withdraw/",
        players.invitation_withdraw,
        name="invitation_withdraw",
    ),
    path("join/<str:token>/", players.join, name="invitation_join"),
]

# Running a long campaign (web/running.py): preview, undo the last turn (R52), end, open (R51).
urlpatterns += [
    path("c/<slug:slug>/preview/", running.preview, name="turn_preview"),
    path("c/<slug:slug>/rollback/", running.rollback, name="turn_rollback"),
    path("c/<slug:slug>/end/", running.end, name="campaign_end"),
    path("c/<slug:slug>/play-on/", running.play_on, name="campaign_play_on"),  # R98
    path("c/<slug:slug>/open/", running.open_to_all, name="campaign_open"),
    path("c/<slug:slug>/archive.json", running.archive, name="campaign_archive"),
]

# The GM's board and department editor (web/editor.py; RULES R4, R10-R13, R53).
BOARD = "c/<slug:slug>/board/<slug:board_slug>/"
DEPARTMENT = f"{BOARD}edit/<slug:dept_slug>/"
urlpatterns += [
    path("c/<slug:slug>/boards/new/", editor.board_new, name="board_new"),
    path(f"{BOARD}edit/", editor.board_edit, name="board_edit"),
    path(f"{BOARD}remove/", editor.board_delete, name="board_delete"),
    path(f"{BOARD}departments/new/", editor.department_new, name="department_new"),
    path(DEPARTMENT, editor.department_edit, name="department_edit"),
    path(f"{DEPARTMENT}remove/", editor.department_delete, name="department_delete"),
    path(f"{DEPARTMENT}links/new/", editor.link_new, name="link_new"),
    path(f"{DEPARTMENT}links/<int:pk>/remove/", editor.link_delete, name="link_delete"),
    path(f"{DEPARTMENT}links/<int:pk>/move/", editor.link_move, name="link_move"),
]

# The GM's editor of a classic board (classic/web/editor.py; RULES R91, R92, R98, R53).
urlpatterns += [
    path(
        f"{BOARD}classic/groups/<slug:group_slug>/",
        classic_editor.classic_group_edit,
        name="classic_group_edit",
    ),
    path(
        f"{BOARD}classic/players/<slug:player>/",
        classic_editor.classic_player_edit,
        name="classic_player_edit",
    ),
]

# Structures, knowledge and members (web/members.py; RULES R13, R50, R70).
urlpatterns += [
    path(f"{BOARD}structures/", members.board_structures, name="board_structures"),
    path(f"{BOARD}knowledge/", members.board_knowledge, name="board_knowledge"),
    path(f"{BOARD}knowledge/bulk/", members.board_knowledge_bulk, name="board_knowledge_bulk"),
    path("c/<slug:slug>/players/<int:pk>/", members.member_edit, name="member_edit"),
    path(
        "c/<slug:slug>/players/<int:pk>/replace/", members.member_hand_over, name="member_replace"
    ),
    path("c/<slug:slug>/players/<int:pk>/remove/", members.member_delete, name="member_remove"),
]

# Press (RULES R62): conversations, the public channel, announcements (press/web/press.py,
# press/web/press_gm.py).
PRESS = "c/<slug:slug>/press/"
urlpatterns += [
    path(PRESS, press.press, name="press"),
    path(f"{PRESS}new/", press.press_new, name="press_new"),
    path(f"{PRESS}<int:pk>/", press.conversation, name="press_conversation"),
    path(f"{PRESS}<int:pk>/poll/", press.press_poll, name="press_poll"),
    path(f"{PRESS}quote/<slug:board_slug>/<slug:kind>/", press.press_quote, name="press_quote"),
    path(f"{PRESS}rules/", press_gm.press_rules, name="press_rules"),
    path(f"{PRESS}message/<int:pk>/hide/", press_gm.press_hide, name="press_hide"),
    path("c/<slug:slug>/announce/", press_gm.announcement_new, name="announcement_new"),
    path("messages/", press.press_overview, name="press_overview"),
]

# The user's profile and the footer's language switch (accounts/web/profile.py).
urlpatterns += [
    path("profile/", profile.profile, name="profile"),
    path("language/", profile.language_switch, name="set_language"),
]

# History (history/web/history.py): the board map's layout, a board's history, a
# structure's and a department's, two turns compared, and the history as a spreadsheet.
urlpatterns += [
    path(f"{BOARD}map/layout.json", history.board_map_layout, name="board_map_layout"),
    path(f"{BOARD}map/data.json", history.board_map_data, name="board_map_data"),
    path(f"{BOARD}history/", history.board_history, name="board_history"),
    path(
        f"{BOARD}history/structure/<int:member>/",
        history.structure_history_page,
        name="structure_history",
    ),
    path(
        f"{BOARD}history/department/<slug:dept_slug>/",
        history.department_history_page,
        name="department_history",
    ),
    path(f"{BOARD}compare/", history.compare, name="compare_turns"),
    path("c/<slug:slug>/history.csv", history.history_export, name="history_export"),
]

# The election round (RULES R80, elections/web/elections.py): the election page, the GM's offices.
OFFICE = f"{BOARD}offices/<int:pk>/"
urlpatterns += [
    path("c/<slug:slug>/election/", elections.election, name="election"),
    path(f"{BOARD}offices/", elections.board_offices, name="board_offices"),
    path(f"{OFFICE}edit/", elections.office_edit, name="office_edit"),
    path(f"{OFFICE}remove/", elections.office_delete, name="office_remove"),
    path(
        f"{OFFICE}shticks/new/<slug:kind>/",
        office_shticks.office_shtick_new,
        name="office_shtick_new",
    ),
    path(
        f"{OFFICE}shticks/<int:index>/remove/",
        office_shticks.office_shtick_remove,
        name="office_shtick_remove",
    ),
    path(f"{OFFICE}election/", elections.election_new, name="election_schedule"),
    path(
        "c/<slug:slug>/elections/<int:pk>/cancel/", elections.election_drop, name="election_cancel"
    ),
]

# RULES parts 7 and 8: the player's dossier (intrigue/web/intrigue.py); the GM's shticks,
# goals and envelopes (intrigue/web/intrigue_gm.py).
MEMBER = "c/<slug:slug>/players/<int:pk>/"
urlpatterns += [
    path("c/<slug:slug>/dossier/", intrigue.dossier_page, name="dossier"),
    path("c/<slug:slug>/characters/", intrigue.characters_page, name="characters"),
    path(f"{MEMBER}shticks/new/<slug:kind>/", intrigue_gm.shtick_new, name="shtick_new"),
    path(f"{MEMBER}shticks/<int:item>/remove/", intrigue_gm.shtick_delete, name="shtick_remove"),
    path(f"{MEMBER}goals/new/<slug:kind>/", intrigue_gm.goal_new, name="goal_new"),
    path(f"{MEMBER}goals/<int:item>/remove/", intrigue_gm.goal_delete, name="goal_remove"),
    path(
        f"{MEMBER}sealed/new/<slug:condition>/",
        intrigue_gm.contingency_new,
        name="contingency_new",
    ),
    path(
        f"{MEMBER}sealed/<int:item>/remove/",
        intrigue_gm.contingency_delete,
        name="contingency_remove",
    ),
    path(
        f"{DEPARTMENT}envelopes/",
        intrigue_gm.department_envelopes_page,
        name="department_envelopes",
    ),
    path(
        f"{DEPARTMENT}envelopes/<int:item>/remove/",
        intrigue_gm.envelope_delete,
        name="envelope_remove",
    ),
]
