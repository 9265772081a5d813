# One module per area, imported here so Django finds them.
from .audit import AuditEntry
from .board import Board, Department, Knowledge, Link, Resource, Structure
from .campaign import PERCEPTION_MAX, Alignment, Campaign, Membership, Weekday
from .changes import CampaignChange
from .characters import Goal, GoalProgress, Shtick
from .classic import ClassicBoard
from .envelopes import ContingencyEnvelope, DossierEntry, IntelEnvelope
from .invitation import Invitation
from .offices import Election, Office
from .play import Notice, NotificationSettings, OrderLog, PlayerTurn
from .press import Announcement, Conversation, DigestClock, Message, Participant
from .profile import Profile
from .turn import Order, Turn, TurnRecord

__all__ = [
    "PERCEPTION_MAX",
    "Alignment",
    "Announcement",
    "AuditEntry",
    "Board",
    "Campaign",
    "CampaignChange",
    "ClassicBoard",
    "ContingencyEnvelope",
    "Conversation",
    "Department",
    "DigestClock",
    "DossierEntry",
    "Election",
    "Goal",
    "GoalProgress",
    "IntelEnvelope",
    "Invitation",
    "Knowledge",
    "Link",
    "Membership",
    "Message",
    "Notice",
    "NotificationSettings",
    "Office",
    "Order",
    "OrderLog",
    "Participant",
    "PlayerTurn",
    "Profile",
    "Resource",
    "Shtick",
    "Structure",
    "Turn",
    "TurnRecord",
    "Weekday",
]
