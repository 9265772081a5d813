# One module per area, imported here so Django finds them.
from .audit import AuditEntry
from .board import Board, Department, Knowledge, Link, Resource, Structure
from .campaign import Alignment, Campaign, Membership, Weekday
from .invitation import Invitation
from .play import Notice, NotificationSettings, OrderLog, PlayerTurn
from .press import Announcement, Conversation, DigestClock, Message, Participant
from .profile import Profile
from .turn import Order, Turn, TurnRecord

__all__ = [
    "Alignment",
    "Announcement",
    "AuditEntry",
    "Board",
    "Campaign",
    "Conversation",
    "Department",
    "DigestClock",
    "Invitation",
    "Knowledge",
    "Link",
    "Membership",
    "Message",
    "Notice",
    "NotificationSettings",
    "Order",
    "OrderLog",
    "Participant",
    "PlayerTurn",
    "Profile",
    "Resource",
    "Structure",
    "Turn",
    "TurnRecord",
    "Weekday",
]
