"""What the election's order forms offer (RULES R80): the engine's legal choices
(engine/legal_election.py, read through OrderContext, whose state holds every player's queued
election orders: tickets are public) as the player may see them, named.

R50: a department is offered by name where the player knows it at least as `rumoured` (a
ticket is a name and a board; nominating asks for no more), and never by its slug, which a
rumour does not give: every value is the department's opaque key (board_views.node_key, the
map's), turned back into slugs by `Keys`. A ticket whose candidate the player has never heard
of is offered all the same, as the election page shows it ("a department you do not know with
..."): every ticket is public and the engine decides. Its value is `ticket_ref`, not the
map's key, which would tie it to that department once the player hears of it."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.crypto import salted_hmac

from campaigns.engine.legal import Legal
from campaigns.models import Order
from campaigns.selectors.board_views import node_key
from campaigns.selectors.order_context import OrderContext
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.selectors.visibility import Level
from campaigns.words.election import support_label, supporter_label, ticket_label

Choices = list[tuple[str, str]]
Grouped = list[tuple[str, Choices]]
SEP = "|"
Kind = Order.Kind
KINDS = (Kind.NOMINATE, Kind.RUNNING_MATE, Kind.SUPPORT, Kind.VOTE)


def ticket_ref(ctx: OrderContext, candidate: str) -> str:
    """The form value of a ticket whose candidate the player has never heard of (R50): opaque,
    and tied to this player, board and turn only, so it matches nothing on their map, in
    another turn or in another player's quoted form."""
    message = f"{ctx.board.pk}:{ctx.turn.pk}:{ctx.player.pk}:{candidate}"
    return salted_hmac("campaigns.election.ticket", message).hexdigest()[:16]


@dataclass(frozen=True)
class Keys:
    """Slug <-> opaque key of every department of the board the player may name (R50), and
    of every ticket, even one whose candidate they have not heard of (`tickets`: the
    candidates of the election so far)."""

    ctx: OrderContext
    tickets: tuple[str, ...] = ()

    def seen(self, slug: str) -> bool:
        return self.ctx.levels.get(slug, Level.UNKNOWN) >= Level.RUMOURED

    def key(self, slug: str) -> str:
        return node_key(self.ctx.board.pk, slug)

    def ticket(self, candidate: str) -> str:
        """A ticket's value: its candidate's key, or an opaque reference where the player
        has never heard of the candidate."""
        return self.key(candidate) if self.seen(candidate) else ticket_ref(self.ctx, candidate)

    def unheard(self) -> list[str]:
        """The candidates of tickets the player has never heard of."""
        return [c for c in self.tickets if not self.seen(c)]

    def slug(self, key: str) -> str:
        """The department a key stands for (a key the form offered: the field checked it)."""
        found = {self.key(s): s for s in self.ctx.levels if self.seen(s)}
        found.update({ticket_ref(self.ctx, c): c for c in self.unheard()})
        return found[key]

    def name(self, slug: str) -> str:
        return self.ctx.name(slug) if self.seen(slug) else str(UNNAMED)

    def slugs(self, value: str) -> list[str]:
        return [self.slug(part) for part in value.split(SEP)]

    def keyed(self, value: object) -> object:
        """A form's initial value in slugs ('mint|temple|1') as the form offers it (keys);
        a slug the player may not see becomes its ticket's reference, or nothing (it must
        not reach the page); other parts stay as they are."""
        if not isinstance(value, str):
            return value
        unheard = self.unheard()

        def part(p: str) -> str:
            if p in unheard:
                return ticket_ref(self.ctx, p)
            if p in self.ctx.levels:
                return self.key(p) if self.seen(p) else ""
            return p

        return SEP.join(part(p) for p in value.split(SEP))


def keys_of(ctx: OrderContext, legal: Legal) -> Keys:
    """The keys of the player's form, with the tickets so far."""
    return Keys(ctx, tuple(mates_of(legal)))


def by_name(keys: Keys, slugs: list[str] | tuple[str, ...]) -> Choices:
    """The departments the player may see among `slugs`, as choices, by name."""
    shown = sorted((keys.name(s), s) for s in slugs if keys.seen(s))
    return [(keys.key(s), name) for name, s in shown]


def mates_of(legal: Legal) -> dict[str, str]:
    """Candidate -> running mate of every ticket so far (the engine's round)."""
    election = legal.plan.election
    return {} if election is None else {c: t.running_mate for c, t in election.tickets.items()}


def ticket_name(keys: Keys, candidate: str, mates: dict[str, str]) -> str:
    mate = mates.get(candidate)
    return ticket_label(keys.name(candidate), keys.name(mate) if mate else "?")


def nominate_candidates(ctx: OrderContext, legal: Legal) -> Choices:
    """R80 step 1: candidates the player may see and pair with a running mate they see."""
    keys = Keys(ctx)
    return by_name(
        keys,
        [
            c.candidate
            for c in legal.nominate
            if keys.seen(c.candidate) and any(keys.seen(m) and c.accepts(m) for m in c.electorate)
        ],
    )


def tickets(ctx: OrderContext, legal: Legal, candidates: list[str]) -> Choices:
    """Tickets as choices, by candidate, named with their running mates as the election
    page names them: every one, a department the player has not heard of unnamed."""
    keys = keys_of(ctx, legal)
    mates = mates_of(legal)
    return [(keys.ticket(c), ticket_name(keys, c, mates)) for c in candidates]


def running_mate_candidates(ctx: OrderContext, legal: Legal) -> Choices:
    """R80 step 1: the player's candidates on tickets another player nominated."""
    return tickets(ctx, legal, [c.candidate for c in legal.running_mate])


def electorate(ctx: OrderContext, legal: Legal, kind: str) -> Choices:
    """Every running mate the player may see (the electorate of the round)."""
    found = legal.nominate if kind == Kind.NOMINATE else legal.running_mate
    slugs = found[0].electorate if found else ()
    return by_name(Keys(ctx), slugs)


def support_choices(ctx: OrderContext, legal: Legal) -> Grouped:
    """R80 step 2: per department of the player's, each ticket (as `tickets` names them),
    and the doubled support where it has a `media` function, saying what doubling costs."""
    keys = keys_of(ctx, legal)
    mates = mates_of(legal)
    grouped: Grouped = []
    departments = legal.plan.board.departments
    for choice in legal.support:
        name = keys.name(choice.department)
        impress = departments[choice.department].impress
        options = []
        for ticket in choice.tickets:
            label = ticket_name(keys, ticket, mates)
            for double in (False, True) if choice.doubles else (False,):
                parts = (keys.key(choice.department), keys.ticket(ticket), str(int(double)))
                value = SEP.join(parts)
                options.append((value, support_label(name, label, double=double)))
        if options:
            grouped.append((supporter_label(name, impress), options))
    return grouped


def vote_choices(ctx: OrderContext, legal: Legal) -> Choices:
    """R80 step 4: a vote for any ticket."""
    return tickets(ctx, legal, [c.ticket for c in legal.vote])


def election_form_choices(ctx: OrderContext, kind: str, legal: Legal) -> Choices:
    """The choices one election kind's form offers (its main select), for the orders page's
    offers: empty when there is nothing the player may see to order."""
    match kind:
        case Kind.NOMINATE:
            return nominate_candidates(ctx, legal)
        case Kind.RUNNING_MATE:
            return running_mate_candidates(ctx, legal)
        case Kind.SUPPORT:
            return [option for _, options in support_choices(ctx, legal) for option in options]
        case Kind.VOTE:
            return vote_choices(ctx, legal)
    return []
