"""Sources by name: what a link says (``random``, ``h4``, ``session``, ``gpt2``) to a source.

A ``Registry`` holds providers, each a family of names and how to open one. The app fills
one with its own providers (ui/shared/sources.py: the shipped models from the app's cache,
this session's model, real models with a download's progress); a notebook or a test can fill
one with pure providers. A new kind of source is one class with the interface of
``gpt_core.source.AttentionSource`` and one provider line where the registry is made.

    registry = Registry([RandomProvider(), ModelProvider("h4", open_h4, Note("models.shipped", {"heads": 4}))])
    source = registry.open("h4")
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .playground import PlaygroundConfig
from .source import AttentionSource, Note
from .sources import RANDOM_SETTINGS, RandomWeights

RANDOM = "random"  # the link name of random weights


class Provider(Protocol):
    """A family of sources by name. ``light``: its sources open and trace in moments (random
    weights, the tiny GPT), where a real model is downloaded, loaded and traced for seconds."""

    light: bool
    settings: tuple[str, ...]  # the settings its sources take, by their link names (a model: none)

    def names(self) -> list[str]:
        """The names it can open now."""
        ...

    def open(self, name: str, settings: Mapping[str, Any]) -> AttentionSource | None:
        """The source ``name`` names with the reader's ``settings`` (None: not here now)."""
        ...

    def label(self, name: str) -> Note:
        """How a list of sources names it."""
        ...


class RandomProvider:
    """Random weights: one name, the settings choose every size (``PlaygroundConfig``'s fields)."""

    light = True
    settings = tuple(RANDOM_SETTINGS.values())

    def names(self) -> list[str]:
        return [RANDOM]

    def open(self, name: str, settings: Mapping[str, Any]) -> AttentionSource | None:
        return RandomWeights(PlaygroundConfig(**settings), name) if name == RANDOM else None

    def label(self, name: str) -> Note:
        return Note("pg.weights.random")


@dataclass(frozen=True)
class ModelProvider:
    """Models whose names are known now (``names``) and opened by a function; a model takes
    no settings."""

    list_names: Callable[[], Iterable[str]]
    opener: Callable[[str], AttentionSource | None]
    labeller: Callable[[str], Note]
    light: bool = True
    settings: tuple[str, ...] = ()

    def names(self) -> list[str]:
        return list(self.list_names())

    def open(self, name: str, settings: Mapping[str, Any]) -> AttentionSource | None:
        return self.opener(name) if name in self.names() else None

    def label(self, name: str) -> Note:
        return self.labeller(name)


class Registry:
    """Providers in the order a list shows them; a name belongs to the first that has it."""

    def __init__(self, providers: Iterable[Provider]) -> None:
        self.providers = list(providers)

    def names(self, light: bool = False) -> list[str]:
        """Every name there is now, each once, in the providers' order (``light``: only those
        of light providers)."""
        chosen = [provider for provider in self.providers if provider.light or not light]
        return list(dict.fromkeys(name for provider in chosen for name in provider.names()))

    def offers(self, name: str | None) -> bool:
        return name is not None and self._provider(name) is not None

    def open(self, name: str, settings: Mapping[str, Any] | None = None) -> AttentionSource | None:
        """The source ``name`` names (None: no such source here now)."""
        provider = self._provider(name)
        return provider.open(name, settings or {}) if provider is not None else None

    def settings(self, name: str) -> tuple[str, ...]:
        """The settings the source ``name`` takes, by their link names (none: not here)."""
        provider = self._provider(name)
        return provider.settings if provider is not None else ()

    def label(self, name: str) -> Note:
        provider = self._provider(name)
        return provider.label(name) if provider is not None else Note("models.unknown", {"name": name})

    def _provider(self, name: str) -> Provider | None:
        return next((provider for provider in self.providers if name in provider.names()), None)
