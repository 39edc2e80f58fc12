"""A rule set's hooks for the integer core: :class:`CoreHooks` (the classic rules: none).

The integer core (:mod:`engine.integer_core`) plays the rules every map shares, driven
by :class:`engine.params.RuleParams` (cards, tickets and their mixes, tunnels,
ferries, substitutes, double routes, the face-up row, the last round). What
one rule set adds is written once, in that rule set's module, twice over: its
value hooks (a :class:`engine.rules.classic.ClassicRules` subclass, for
:func:`engine.apply`) and its core hooks (a :class:`CoreHooks` subclass, named
by the rule set's ``core_hooks``), so the core never names a map or one of its
parameters. ``tests/engine/test_core.py`` holds the two equal on every map.

The core calls a hook only where the rule set overrides it (:func:`overrides`),
so the classic rules pay nothing for them. Hooks run as plain Python (the core
may be the mypyc build); they read and change the :class:`engine.integer_core.Core`
they are given: its public arrays (``hands``, ``discard``, ``pieces``,
``bonus_points``, ``events``...), its ``variant`` (the rule set's own state,
made by :meth:`CoreHooks.new_state`), and :meth:`engine.integer_core.Core.end_turn`.

How a moment maps to a hook (value hook -> core hook):

- ``on_route_claimed`` -> :meth:`CoreHooks.on_route_claimed` (True: a decision
  is pending, the turn goes on in one of :attr:`CoreHooks.steps`);
- ``on_turn_end`` -> :meth:`CoreHooks.on_turn_end`;
- ``turn_actions`` / ``step_actions`` -> :meth:`CoreHooks.turn_actions` /
  :meth:`CoreHooks.step_actions` (the rule set's own actions, ints from
  :attr:`CoreHooks.base` on, :meth:`CoreHooks.action_count` of them);
- ``apply_action`` -> :meth:`CoreHooks.apply` (True: the turn is over);
- the rule set's extras (:mod:`engine.extras`) of :class:`engine.state.GameState`
  and :class:`engine.state.PlayerState` <-> :meth:`CoreHooks.load` /
  :meth:`CoreHooks.save` (which stores blank extras as None, as the value hooks do);
- ``final_bonuses``: none; the core scores a finished game with the value
  scoring (:func:`engine.scoring.final_scores` on :meth:`engine.integer_core.Core.to_state`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

if TYPE_CHECKING:
    from ..actions import Action
    from ..state import GameState

#: :class:`engine.integer_core.Core`, as a rule set's hooks name it.
Core = TypeVar("Core")
#: :class:`engine.integer_core.CoreTable`, as a rule set's hooks name it.
CoreTable = TypeVar("CoreTable")


class CoreHooks(Generic[Core, CoreTable]):
    """The core's hooks of one rule set, built once per :class:`engine.integer_core.CoreTable`.

    Generic over the core and its table so that this module, which every rule set
    imports, does not import the integer core (that would close an import cycle
    through the rules; ``tests/test_structure.py``): a rule set's hooks subclass
    ``CoreHooks["Core", "CoreTable"]`` with the integer core's classes.

    Attributes:
        table: the rule set's integer tables (card, route, ticket and city indices).
        base: the first int of this rule set's own actions (set by the table).
        first_step: the core's step int of ``steps[0]`` (set by the table).
    """

    #: The decisions this rule set adds, as :attr:`engine.state.GameState.step` names them.
    steps: ClassVar[tuple[str, ...]] = ()

    def __init__(self, table: CoreTable) -> None:
        self.table = table
        self.base = 0
        self.first_step = 0

    # ----------------------------------------------------------------- actions
    def action_count(self) -> int:
        """How many ints this rule set's own actions take (from :attr:`base` on)."""
        return 0

    def encode(self, action: Action) -> int:
        """The int of one of this rule set's value actions.

        Raises:
            ValueError: not an action of this rule set.
        """
        raise ValueError(f"the integer core cannot express {action!r}")

    def decode(self, seat: int, action: int) -> Action:
        """The value action of one of this rule set's ints (``base <= action < base + count``)."""
        raise ValueError(f"no action {action} in this rule set")

    def turn_actions(self, core: Core, seat: int, out: list[int]) -> None:
        """Append this rule set's actions ``seat`` may take at the start of its turn."""

    def step_actions(self, core: Core, seat: int) -> list[int]:
        """The answers ``seat`` may give in one of :attr:`steps` (``core.step_``)."""
        return []

    def apply(self, core: Core, seat: int, action: int) -> bool:
        """Apply one of this rule set's actions (listed by :meth:`turn_actions` or
        :meth:`step_actions`); True when the turn is over (the core then ends it)."""
        raise ValueError(f"no action {action} in this rule set")

    # ----------------------------------------------------------------- moments
    def on_route_claimed(self, core: Core, seat: int, route: int, played: int) -> bool:
        """After ``route`` became ``seat``'s (paid, points and pieces counted);
        ``played``: the colour of the colour cards paid (-1: none). True when a
        decision is now pending (``core.step_`` set to one of :attr:`steps`)."""
        return False

    def on_turn_end(self, core: Core, seat: int) -> None:
        """When ``seat``'s turn ends, before the end of the game is checked."""

    def stations(self, core: Core) -> tuple[list[int], list[int]] | None:
        """The train stations on the board, for the AI's rollouts: ``(per city index the
        owning seat or -1, the cities in build order)``; None when the rule set has none."""
        return None

    # ----------------------------------------------------------------- state
    def new_state(self, core: Core) -> Any:
        """This rule set's state of a new game (``core.variant``); None: it has none."""
        return None

    def load(self, core: Core, state: GameState) -> None:
        """Set ``core.variant`` from a value state (:meth:`engine.integer_core.Core.from_state`)."""

    def save(self, core: Core, state: GameState) -> None:
        """Write ``core.variant`` into a value state made by
        :meth:`engine.integer_core.Core.to_state` (its players are built)."""


#: The hooks the core calls only where a rule set overrides them.
OPTIONAL_HOOKS = ("on_route_claimed", "on_turn_end", "turn_actions")


def overrides(hooks: CoreHooks[Any, Any], name: str) -> bool:
    """True when ``hooks``' class overrides :class:`CoreHooks`' method ``name``."""
    return getattr(type(hooks), name) is not getattr(CoreHooks, name)
