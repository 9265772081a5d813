from django.urls import path

from campaigns.web import campaign as views
from campaigns.web import orders as order_views
from campaigns.web import reports as report_views
from campaigns.web import rules as rules_views

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", rules_views.how_to_play, name="how_to_play"),
    path("c/<slug:slug>/", views.campaign, name="campaign"),
    path("c/<slug:slug>/board/<slug:board_slug>/", views.board, name="board"),
    path("c/<slug:slug>/start/", views.start, name="campaign_start"),
    path("c/<slug:slug>/pause/", views.pause, name="campaign_pause"),
    path("c/<slug:slug>/resume/", views.resume, name="campaign_resume"),
    path("c/<slug:slug>/process/", views.process, name="turn_process"),
    path("c/<slug:slug>/deadline/", views.extend_deadline, name="extend_deadline"),
]

# Turn reports, verify-the-dice and mail settings (campaigns/report_views.py).
urlpatterns += [
    path("c/<slug:slug>/turn/<int:number>/report/", report_views.turn_report, name="turn_report"),
    path(
        "c/<slug:slug>/turn/<int:number>/report/note/<int:order_id>/",
        report_views.turn_report_note,
        name="turn_report_note",
    ),
    path("c/<slug:slug>/turn/<int:number>/verify/", report_views.verify_dice, name="verify_dice"),
    path(
        "settings/notifications/",
        report_views.notification_settings,
        name="notification_settings",
    ),
]

# The weekly orders (RULES R40-R47): campaigns/order_views.py.
urlpatterns += [
    path("c/<slug:slug>/orders/", order_views.orders, name="orders"),
    path(
        "c/<slug:slug>/orders/<slug:board_slug>/new/<slug:kind>/",
        order_views.order_new,
        name="order_new",
    ),
    path("c/<slug:slug>/orders/<int:pk>/edit/", order_views.order_edit, name="order_edit"),
    path("c/<slug:slug>/orders/<int:pk>/cancel/", order_views.order_cancel, name="order_cancel"),
    path("c/<slug:slug>/orders/<int:pk>/shift/", order_views.order_shift, name="order_shift"),
    path(
        "c/<slug:slug>/orders/reinforce/<int:attempt_pk>/",
        order_views.order_reinforce,
        name="order_reinforce",
    ),
    path("c/<slug:slug>/orders/ready/", order_views.turn_ready, name="turn_ready"),
    path("c/<slug:slug>/notices/read/", order_views.notices_read, name="notices_read"),
    path(
        "c/<slug:slug>/orders/<slug:board_slug>/defence/<slug:dept_slug>/",
        order_views.department_defence,
        name="department_defence",
    ),
]
