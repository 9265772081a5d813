# One module per area, imported here so Django finds them.
from .audit import AuditEntry
from .board import Board, Department, Knowledge, Link, Resource, Structure
from .campaign import Alignment, Campaign, Membership, Weekday
from .invitation import Invitation
from .play import Notice, NotificationSettings, OrderLog, PlayerTurn
from .turn import Order, Turn, TurnRecord

__all__ = [
    "Alignment",
    "AuditEntry",
    "Board",
    "Campaign",
    "Department",
    "Invitation",
    "Knowledge",
    "Link",
    "Membership",
    "Notice",
    "NotificationSettings",
    "Order",
    "OrderLog",
    "PlayerTurn",
    "Resource",
    "Structure",
    "Turn",
    "TurnRecord",
    "Weekday",
]
