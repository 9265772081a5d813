"""Every URL of the site, by area: each area's views are in campaigns/web/<area>.py."""

from django.urls import path

from campaigns.web import campaign, history, orders, players, reports, rules, setup

urlpatterns = [
    path("", campaign.home, name="home"),
    path("rules/", rules.how_to_play, name="how_to_play"),
    path("c/<slug:slug>/", campaign.campaign, name="campaign"),
    path("c/<slug:slug>/board/<slug:board_slug>/", campaign.board, name="board"),
    path("c/<slug:slug>/start/", campaign.start, name="campaign_start"),
    path("c/<slug:slug>/pause/", campaign.pause, name="campaign_pause"),
    path("c/<slug:slug>/resume/", campaign.resume, name="campaign_resume"),
    path("c/<slug:slug>/process/", campaign.process, name="turn_process"),
    path("c/<slug:slug>/deadline/", campaign.extend_deadline, name="extend_deadline"),
]

# Turn reports, verify-the-dice and mail settings (web/reports.py).
TURN = "c/<slug:slug>/turn/<int:number>/"
urlpatterns += [
    path(f"{TURN}report/", reports.turn_report, name="turn_report"),
    path(f"{TURN}report/note/<int:order_id>/", reports.turn_report_note, name="turn_report_note"),
    path(f"{TURN}verify/", reports.verify_dice, name="verify_dice"),
    path("settings/notifications/", reports.notification_settings, name="notification_settings"),
]

# The weekly orders (RULES R40-R47): web/orders.py.
ORDERS = "c/<slug:slug>/orders/"
urlpatterns += [
    path(ORDERS, orders.orders, name="orders"),
    path(f"{ORDERS}<slug:board_slug>/new/<slug:kind>/", orders.order_new, name="order_new"),
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

# History (issue 11, web/history.py): the board map's layout, a board's history, a
# structure's and a department's, two turns compared, and the history as a spreadsheet.
BOARD = "c/<slug:slug>/board/<slug:board_slug>/"
urlpatterns += [
    path(f"{BOARD}map/layout.json", history.board_map_layout, name="board_map_layout"),
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
