"""Randomness from explicit generators only: no global random state anywhere.

Streamlit runs every student's session as a thread of one process, so torch's global
random state is shared by all of them; seeding it in one session while another draws
gives the same link different numbers. Every draw here comes from a ``torch.Generator``
seeded from the configuration instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

import torch
from torch import nn

Module = TypeVar("Module", bound=nn.Module)

LINEAR_INIT_GAIN = math.sqrt(5)  # torch's default for nn.Linear (kaiming_uniform_ with a = √5)


def seeded_generator(seed: int) -> torch.Generator:
    """A CPU generator in the state ``torch.manual_seed(seed)`` would give the global one."""
    return torch.Generator().manual_seed(seed)


def build_seeded(factory: Callable[[], Module], generator: torch.Generator) -> Module:
    """``factory()``'s module with every parameter drawn from ``generator``. It is created on
    the meta device first, so building it draws nothing from torch's global state."""
    with torch.device("meta"):
        module = factory()
    module.to_empty(device="cpu")
    return initialize(module, generator)


@torch.no_grad()
def initialize(module: nn.Module, generator: torch.Generator) -> nn.Module:
    """Draw every parameter of ``module`` as torch's defaults do, from ``generator``.

    Layers are visited in the order they were created, so the numbers are bit-identical to
    building the module right after ``torch.manual_seed(seed)`` with the same seed. Parameters
    without randomness (LayerNorm) and buffers (an attention mask) are reset too, so a module
    created on the meta device comes out complete.
    """
    for layer in module.modules():
        if isinstance(layer, nn.Linear):
            nn.init.kaiming_uniform_(layer.weight, a=LINEAR_INIT_GAIN, generator=generator)
            if layer.bias is not None:
                bound = 1 / math.sqrt(layer.in_features) if layer.in_features > 0 else 0.0
                nn.init.uniform_(layer.bias, -bound, bound, generator=generator)
        elif isinstance(layer, nn.Embedding):
            nn.init.normal_(layer.weight, generator=generator)
        elif isinstance(layer, nn.LayerNorm):
            layer.reset_parameters()
        if hasattr(layer, "reset_buffers"):
            layer.reset_buffers()
    return module


def dropout(x: torch.Tensor, layer: nn.Dropout, generator: torch.Generator | None) -> torch.Tensor:
    """``layer(x)``, with the mask drawn from ``generator`` when one is given.

    Survivors are scaled by 1 / (1 − p), as nn.Dropout does. Without a generator (a
    notebook, the book's code) this is nn.Dropout itself.
    """
    if generator is None or not layer.training or layer.p == 0.0:
        return layer(x)
    keep = torch.rand(x.shape, generator=generator, dtype=x.dtype) >= layer.p
    return x * keep / (1.0 - layer.p)
