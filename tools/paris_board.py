"""The PROVISIONAL Paris board: no public data of the printed board exists.

Built from the real geography of 1920s Paris: 22 real places, routes between
geographic neighbours, each route's length from the real distance between its
two places, colours spread by a fixed rule. Read by
``tools/make_provisional_tickets.py paris``, which adds the 20 tickets and
writes ``maps/paris/map.json``. Everything here is deterministic.

Constraints of the real game kept (rulebook and reviews, see
``shared/reference/maps/paris.json`` ``partial_facts``): every route has a
colour (no gray); lengths 1-3; blue only on length-1 routes, yellow only on
length-2 routes; some double routes; colour totals roughly in proportion to
the card mix (8 white, 6 each of blue, red, yellow, green, purple), so white
has the most spaces.
"""

from __future__ import annotations

import math

#: id -> (printed name, lat, lon): real WGS84 positions of the places (approximate to ~50 m).
PLACES: dict[str, tuple[str, float, float]] = {
    "moulin_rouge": ("Moulin Rouge", 48.8841, 2.3322),
    "montmartre": ("Montmartre", 48.8865, 2.3408),
    "sacre_coeur": ("Sacré-Cœur", 48.8867, 2.3431),
    "gare_du_nord": ("Gare du Nord", 48.8809, 2.3553),
    "gare_saint_lazare": ("Gare Saint-Lazare", 48.8763, 2.3254),
    "opera": ("Opéra", 48.8720, 2.3316),
    "arc_de_triomphe": ("Arc de Triomphe", 48.8738, 2.2950),
    "champs_elysees": ("Champs-Élysées", 48.8690, 2.3100),
    "concorde": ("Concorde", 48.8656, 2.3212),
    "trocadero": ("Trocadéro", 48.8616, 2.2893),
    "tour_eiffel": ("Tour Eiffel", 48.8584, 2.2945),
    "invalides": ("Invalides", 48.8566, 2.3125),
    "louvre": ("Louvre", 48.8606, 2.3376),
    "les_halles": ("Les Halles", 48.8625, 2.3450),
    "republique": ("République", 48.8674, 2.3636),
    "saint_germain": ("Saint-Germain-des-Prés", 48.8540, 2.3339),
    "notre_dame": ("Notre-Dame", 48.8530, 2.3499),
    "bastille": ("Bastille", 48.8532, 2.3691),
    "pere_lachaise": ("Père-Lachaise", 48.8614, 2.3933),
    "pantheon": ("Panthéon", 48.8462, 2.3464),
    "gare_de_lyon": ("Gare de Lyon", 48.8443, 2.3744),
    "montparnasse": ("Montparnasse", 48.8421, 2.3219),
}

#: (a, b, tracks): routes between geographic neighbours; tracks 2 = a double route.
EDGES: list[tuple[str, str, int]] = [
    ("moulin_rouge", "montmartre", 1),
    ("montmartre", "sacre_coeur", 1),
    ("sacre_coeur", "gare_du_nord", 2),
    ("moulin_rouge", "gare_saint_lazare", 1),
    ("moulin_rouge", "opera", 1),
    ("montmartre", "opera", 1),
    ("gare_du_nord", "opera", 1),
    ("gare_du_nord", "republique", 2),
    ("gare_saint_lazare", "opera", 2),
    ("gare_saint_lazare", "champs_elysees", 1),
    ("arc_de_triomphe", "gare_saint_lazare", 1),
    ("arc_de_triomphe", "champs_elysees", 2),
    ("arc_de_triomphe", "trocadero", 1),
    ("trocadero", "tour_eiffel", 2),
    ("tour_eiffel", "invalides", 1),
    ("champs_elysees", "concorde", 2),
    ("champs_elysees", "invalides", 1),
    ("concorde", "opera", 1),
    ("concorde", "louvre", 1),
    ("concorde", "invalides", 1),
    ("opera", "louvre", 2),
    ("opera", "les_halles", 1),
    ("opera", "republique", 1),
    ("louvre", "les_halles", 2),
    ("louvre", "saint_germain", 1),
    ("les_halles", "republique", 1),
    ("les_halles", "notre_dame", 2),
    ("invalides", "saint_germain", 1),
    ("invalides", "montparnasse", 1),
    ("tour_eiffel", "montparnasse", 1),
    ("saint_germain", "notre_dame", 1),
    ("saint_germain", "montparnasse", 2),
    ("saint_germain", "pantheon", 1),
    ("notre_dame", "pantheon", 1),
    ("notre_dame", "bastille", 2),
    ("republique", "bastille", 1),
    ("republique", "pere_lachaise", 1),
    ("bastille", "pere_lachaise", 1),
    ("bastille", "gare_de_lyon", 2),
    ("pantheon", "gare_de_lyon", 1),
    ("pantheon", "montparnasse", 1),
    ("gare_de_lyon", "pere_lachaise", 1),
]

#: Route length from the real distance: below 1.2 km 1 space, below 1.9 km 2, else 3.
LENGTH_LIMITS_KM = (1.2, 1.9)

#: Card mix of the deck (rulebook component list), wild cards excluded.
CARD_MIX = {"white": 8, "blue": 6, "red": 6, "yellow": 6, "green": 6, "purple": 6}
#: Colours allowed only on one length (reviews of the real board).
ONLY_LENGTH = {"blue": 1, "yellow": 2}


def distance_km(a: str, b: str) -> float:
    """Great-circle distance between two places (haversine, Earth radius 6371 km)."""
    _, la1, lo1 = PLACES[a]
    _, la2, lo2 = PLACES[b]
    p1, p2 = math.radians(la1), math.radians(la2)
    dp, dl = p2 - p1, math.radians(lo2 - lo1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(h))


def length_for(km: float) -> int:
    """Spaces for a real distance (see :data:`LENGTH_LIMITS_KM`)."""
    return 1 + sum(1 for limit in LENGTH_LIMITS_KM if km >= limit)


def _allowed(color: str, length: int) -> bool:
    need = ONLY_LENGTH.get(color)
    return need is None or length == need


def build_routes() -> list[dict]:
    """Every track with id, ends, length, colour and group.

    Colours: target spaces per colour = total spaces x its share of the card
    mix; tracks are coloured longest first (ties: data order), each taking the
    allowed colour furthest below its target (relative), never the colour of
    its other track; blue is allowed only on length 1, yellow only on length 2.
    """
    tracks = []
    for index, (a, b, n) in enumerate(EDGES):
        a, b = min(a, b), max(a, b)
        length = length_for(distance_km(a, b))
        for k in range(1, n + 1):
            tracks.append({"order": index, "a": a, "b": b, "length": length, "k": k})
    total = sum(t["length"] for t in tracks)
    mix = sum(CARD_MIX.values())
    target = {c: total * n / mix for c, n in CARD_MIX.items()}
    assigned = dict.fromkeys(CARD_MIX, 0)
    colours_of_pair: dict[tuple[str, str], list[str]] = {}
    for t in sorted(tracks, key=lambda t: (-t["length"], t["order"], t["k"])):
        pair = (t["a"], t["b"])
        taken = colours_of_pair.setdefault(pair, [])
        options = [c for c in CARD_MIX if _allowed(c, t["length"]) and c not in taken]
        colour = min(
            options,
            key=lambda c: ((assigned[c] + t["length"]) / target[c], list(CARD_MIX).index(c)),
        )
        t["color"] = colour
        assigned[colour] += t["length"]
        taken.append(colour)
    routes = []
    for t in sorted(tracks, key=lambda t: (t["order"], t["k"])):
        group = f"{t['a']}__{t['b']}"
        routes.append(
            {
                "id": f"{group}__{t['k']}",
                "a": t["a"],
                "b": t["b"],
                "length": t["length"],
                "color": t["color"],
                "group": group,
            }
        )
    return routes


def cities(coordinates: dict[str, dict[str, float]] | None = None) -> list[dict]:
    """The places as map-file cities; ``coordinates`` (id -> {lat, lon}) overrides positions when given."""
    out = []
    for pid, (name, lat, lon) in PLACES.items():
        if coordinates and pid in coordinates:
            lat, lon = coordinates[pid]["lat"], coordinates[pid]["lon"]
        out.append({"id": pid, "name": name, "lat": lat, "lon": lon, "kind": "city"})
    return out
