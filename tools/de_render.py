"""German for the board, zoom and ticket-planner sentences (``python tools/fill_catalog.py tools/de_render.py``).

``T`` maps ``(context, msgid)`` to the German text, as tools/fill_catalog.py expects.
"""

T = {
    (
        None,
        "There is no city called {city} on this map.",
    ): "Auf diesem Plan gibt es keine Stadt namens {city}.",
    (
        None,
        "You hold no {tickets} yet: name a city to zoom in.",
    ): "Du hast noch keine {tickets}: nenne eine Stadt zum Vergrößern.",
    (None, "{a} – {b}"): "{a} – {b}",
    (None, "{ticket} ({points}): done."): "{ticket} ({points}): erfüllt.",
    (
        None,
        "{ticket} ({points}): can no longer be completed (−{points} at the end).",
    ): "{ticket} ({points}): nicht mehr zu erfüllen (−{points} am Ende).",
    (
        None,
        "{ticket} ({points}): {cars} more spaces ({colors}): {routes}.",
    ): "{ticket} ({points}): noch {cars} Felder ({colors}): {routes}.",
    (
        None,
        "Taken by others: {routes}; this detour costs {n} more.",
    ): "Von anderen besetzt: {routes}; dieser Umweg kostet {n} mehr.",
    (None, "You have too few pieces left for it."): "Dafür hast du zu wenige Wagen übrig.",
    (None, "**Ticket planner**"): "**Zielplaner**",
    (None, "Zoom"): "Vergrößern",
    (None, "Your {tickets}"): "Deine {tickets}",
    ("command", "region"): "bereich",
    (
        "command",
        'Zoom in: a city name, or "tickets" for the cities of your tickets (only you see it)',
    ): 'Vergrößern: ein Stadtname oder "ziele" für die Städte deiner Ziele (nur du siehst es)',
}
