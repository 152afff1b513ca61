"""Errors raised by the runtime. Every misuse raises a :class:`GameError` subclass and changes nothing."""

from __future__ import annotations


class GameError(Exception):
    """Base of every error the runtime raises on misuse."""


class ContentError(GameError):
    """Content failed validation; ``problems`` lists every problem found (file, line, id, field)."""

    def __init__(self, problems: list[str] | str) -> None:
        if isinstance(problems, str):
            problems = [problems]
        self.problems: list[str] = list(problems)
        n = len(self.problems)
        head = f"{n} problem{'s' if n != 1 else ''} in content"
        super().__init__(head + ":\n" + "\n".join("  " + p for p in self.problems))


class NoBattleError(GameError):
    """A battle-only call was made while no battle is active."""


class UnknownCardError(GameError):
    """A card id that the content does not define."""


class UnknownIdError(GameError):
    """An encounter, enemy, status or character id that the content does not define."""


class NotInBattleError(GameError):
    """A card instance or unit that does not belong to this game's current battle."""


class TargetError(GameError):
    """A target of the wrong kind for the card's target mode."""


class ChoiceError(GameError):
    """An answer to a Choice that is not allowed (no open choice, not a candidate, wrong count)."""


class RewardError(GameError):
    """A reward call when no reward is offered, or a reward that was not offered."""


class RunOverError(GameError):
    """``start_battle`` after the run's last battle was lost: the run is over (a new run is a new Game)."""


class BusyError(GameError):
    """A state-changing call made from inside an event handler while the runtime is resolving."""


class FlowError(GameError):
    """A behaviour graph failed at run time (for example a While loop exceeded its iteration cap)."""


class IllegalActionError(GameError):
    """An agent action that is not legal in the current state."""


class StepLimitError(GameError):
    """A battle exceeded the step cap without ending (a runaway content loop)."""


class SaveError(GameError):
    """A save that cannot be loaded: names the JSON path of the first problem."""


class ArgumentError(GameError, TypeError, ValueError):
    """A public call got an argument of the wrong type or value; the message names the parameter."""


class HandlerError(GameError):
    """An event handler raised; the wave it ran in was completed first. ``__cause__`` is the original."""


class PolicyError(GameError):
    """A simulation policy that raised, returned no action or chose an illegal one; the message
    names the policy, the battle and the decision."""


class BattleError(GameError):
    """A simulated battle that failed (an engine or content error); the message names the
    battle (job, index, game seed) and what failed."""
