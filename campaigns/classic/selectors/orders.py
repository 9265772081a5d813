"""What one player may order on a classic board (RULES R94-R97, ENGINE.md part 10), for the
order forms: the engine's legal choices (engine/classic/legal.py, the one source) as options
naming groups and players by name, the check of a posted order against them, and an attack's
preview (its need term by term and its exact chance, R95). R99: the preview knows nothing of
the defender's treasury or standing defence (treasuries are secret), so it counts none."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from campaigns.classic.selectors.state import classic_engine_state, stored_classic_state
from campaigns.engine.classic.legal import ClassicLegal, legal_choices
from campaigns.engine.classic.preview import attack_preview
from campaigns.engine.errors import EngineError
from campaigns.models import Board, Membership, Order, Turn
from campaigns.models.turn import CLASSIC_ENGINE_KINDS
from campaigns.reasons import site_refusal
from campaigns.selectors.board_views import player_names
from campaigns.selectors.order_checks import OrderRefused
from campaigns.words.classic import classic_choice_text, classic_reason

Kind = Order.Kind
# The site's classic kinds, in the order the orders page offers them.
CLASSIC_KINDS = (
    Kind.CLASSIC_ATTACK, Kind.CLASSIC_DEFEND, Kind.CLASSIC_INTERFERE, Kind.CLASSIC_TRANSFER,
    Kind.CLASSIC_MOVE, Kind.CLASSIC_GIVE, Kind.CLASSIC_ACCEPT, Kind.CLASSIC_DROP,
    Kind.CLASSIC_GIFT, Kind.CLASSIC_PASS,
)  # fmt: skip
# Per site kind: the fields one choice fixes (one select), in the option value's order.
CHOICE_FIELDS: dict[str, tuple[str, ...]] = {
    "attack": ("group", "target", "aim"),
    "defend": ("group",),
    "interfere": ("target", "side", "for"),
    "transfer": ("from", "to"),
    "move_group": ("group", "to"),
    "give_group": ("group", "to_player"),
    "group_accept": ("group", "parent"),
    "drop": ("group",),
    "mb_gift": ("to_player",),
    "pass": (),
}
# Per site kind: its amounts in MB (the first required where the engine requires it).
AMOUNTS: dict[str, tuple[str, ...]] = {
    "attack": ("spend", "spend_illuminati", "transfer_after"),
    "defend": ("spend", "spend_illuminati"),
    "interfere": ("amount",),
    "transfer": ("amount",),
    "mb_gift": ("amount",),
}
REQUIRED_AMOUNTS = ("interfere", "transfer", "mb_gift")
SEP = "|"
NO_STRUCTURE = site_refusal("classic_no_structure")


def engine_kind(kind: str) -> str:
    return CLASSIC_ENGINE_KINDS.get(kind, kind)  # type: ignore[call-overload, no-any-return]


@dataclass(frozen=True)
class ClassicOption:
    """One legal choice as a select option: `value` its fields joined, `label` in words."""

    value: str
    label: str
    fields: dict[str, str]


def choice_fields(kind: str, choice: Any) -> list[dict[str, str]]:
    """The ENGINE.md fields each of legal.py's choices fixes (an interference for an attack
    is one option per attacking player)."""
    match kind:
        case "attack":
            return [{"group": choice.group, "target": choice.target, "aim": choice.aim}]
        case "defend" | "drop":
            return [{"group": choice.group}]
        case "move_group":
            return [{"group": choice.group, "to": choice.to}]
        case "group_accept":
            return [{"group": choice.group, "parent": choice.to}]
        case "transfer":
            return [{"from": choice.source, "to": choice.dest}]
        case "give_group":
            return [{"group": choice.group, "to_player": choice.to_player}]
        case "mb_gift":
            return [{"to_player": choice.to_player}]
        case "interfere":
            if choice.side == "defend":
                return [{"target": choice.target, "side": "defend"}]
            return [
                {"target": choice.target, "side": "attack", "for": p} for p in choice.for_players
            ]
    return [{}]


@dataclass
class ClassicOrderContext:
    """One classic board for one player: its stored state as the engine's, the player's
    engine id, group and player names, and the engine's legal choices (None: the player
    plays no structure on this board)."""

    player: Membership
    turn: Turn
    board: Board
    state: dict[str, Any]
    me: str
    groups: dict[str, str]
    players: dict[str, str]
    legal: ClassicLegal | None

    def group_name(self, slug: object) -> str:
        return self.groups.get(str(slug), "?")

    def player_name(self, pid: object) -> str:
        return self.players.get(str(pid), "?")

    def reason_words(self, reason: str) -> str:
        """An engine reason in the reader's language, naming the groups and players this
        context names (never a group in the deck, R99)."""
        return classic_reason(reason, {**self.groups, **self.players})

    def why_not(self, kind: str) -> str | None:
        """The one-line reason `kind` offers nothing now, or None."""
        if self.legal is None:
            return self.reason_words(NO_STRUCTURE)
        reason = self.legal.why_not(engine_kind(kind))
        return None if reason is None else self.reason_words(reason)

    def options(self, kind: str) -> list[ClassicOption]:
        if self.legal is None:
            return []
        found: dict[str, ClassicOption] = {}
        for choice in self.legal.choices(engine_kind(kind)):
            for fields in choice_fields(kind, choice):
                value = SEP.join(fields[f] for f in CHOICE_FIELDS[kind] if f in fields)
                label = classic_choice_text(kind, fields, self.group_name, self.player_name)
                found.setdefault(value, ClassicOption(value, label, fields))
        return sorted(found.values(), key=lambda o: o.label)

    def mine(self) -> list[tuple[str, str]]:
        """(slug, name) of the player's groups (an attack's possible assistants)."""
        return sorted(
            ((str(g["slug"]), str(g.get("name", g["slug"]))) for g in self.state.get("groups", [])
             if g.get("place") == "structure" and g.get("controller") == self.me),
            key=lambda pair: pair[1],
        )  # fmt: skip

    def refusal(self, kind: str, payload: dict[str, Any]) -> str | None:
        """The engine's reason the order is not one it offers now, or None (R94-R97)."""
        if self.legal is None:
            return self.why_not(kind)
        return self.legal.refusal({**payload, "kind": engine_kind(kind)})

    def preview(self, payload: dict[str, Any]) -> dict[str, Any]:
        """R95: an attack's need term by term and exact chance, counting no spending of the
        defender (R99: unknown to the attacker); EngineError when it is not legal."""
        return attack_preview(self.state, {**payload, "kind": "attack", "player": self.me})


def classic_order_context(player: Membership, turn: Turn, board: Board) -> ClassicOrderContext:
    """3 queries: the stored state, the members' names, the catalogue of alignments."""
    stored = stored_classic_state(board)
    catalogue = [a.as_engine() for a in board.campaign.alignments.all()]
    state = classic_engine_state(stored, catalogue=catalogue)
    me = player.player_id
    groups = {str(g["slug"]): str(g.get("name", g["slug"])) for g in state.get("groups", [])
              if isinstance(g, dict) and g.get("place") != "deck"}  # fmt: skip
    try:
        legal: ClassicLegal | None = legal_choices(state, me)
    except EngineError:
        legal = None
    return ClassicOrderContext(
        player, turn, board, state, me, groups, player_names(board.campaign), legal
    )


def classic_order_check(
    *, player: Membership, turn: Turn, board: Board, kind: str, payload: dict[str, Any]
) -> None:
    """R90, R94-R97: a classic kind on a classic board, and one of the engine's choices for
    the player now; else OrderRefused with the reason, in words (nothing is stored)."""
    if not board.is_classic or kind not in CLASSIC_KINDS:
        raise OrderRefused(
            _("That kind of order is not played on this board (%(rule)s).") % {"rule": "R90"}
        )
    ctx = classic_order_context(player, turn, board)
    reason = ctx.refusal(kind, payload)
    if reason is not None:
        raise OrderRefused(
            _("That order is not one the rules allow now: %(reason)s. Nothing was stored.")
            % {"reason": ctx.reason_words(reason)}
        )


@dataclass(frozen=True)
class ClassicOffer:
    """The orders page's button for one classic kind, or why it has no choice now."""

    kind: str
    label: str
    why_not: str | None


def classic_kinds_offered(ctx: ClassicOrderContext) -> list[ClassicOffer]:
    """Every classic kind (R94-R97): a button where the engine offers a choice, else its
    one-line reason (legal.py's why_not)."""
    return [ClassicOffer(k, str(Kind(k).label), ctx.why_not(k)) for k in CLASSIC_KINDS]
