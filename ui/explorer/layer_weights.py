"""Every layer's softmax weights of a trace, read as one array without being copied into one."""

from __future__ import annotations

import numpy as np


class LayerWeights:
    """Every layer's softmax weights as one (layers, h, T, T) array to read, without copying
    them into one: a layer, or a layer's head, is a view of the trace's own tensor (a long
    text's 12 layers of 12 × 512 × 512 are 150 MB; a stacked copy for every rerun would be
    as much again). ``np.asarray`` stacks them, for the few figures that want all at once."""

    def __init__(self, layers: list[np.ndarray]) -> None:
        self.layers = layers
        self.shape = (len(layers), *layers[0].shape)
        self.ndim = len(self.shape)
        self.nbytes = sum(layer.nbytes for layer in layers)

    def __len__(self) -> int:
        return len(self.layers)

    def __iter__(self):
        return iter(self.layers)

    def __getitem__(self, index):
        if isinstance(index, tuple):
            return self.layers[index[0]][index[1:]]
        return self.layers[index]

    def __array__(self, dtype=None, copy=None):
        stacked = np.stack(self.layers)
        return stacked if dtype is None else stacked.astype(dtype)
