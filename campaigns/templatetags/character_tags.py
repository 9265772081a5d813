"""The campaign page's character box (RULES R60, R61, R71, R72): the viewer's own shticks,
secret goals with their progress and a link to their dossier. Nobody else's (R51): the
view reads the box (selectors/campaign_boxes.py), this only draws it."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.inclusion_tag("intrigue/_sheet.html")
def character_box(box: Any) -> dict[str, Any]:
    """`box`: a campaign_boxes.CharacterBox."""
    return {"campaign": box.campaign, "member": box.member, "sheet": box.sheet, "fresh": box.fresh}
