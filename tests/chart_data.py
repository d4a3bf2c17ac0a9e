"""Reading Plotly figure JSON the way the browser receives it."""

from __future__ import annotations

import base64

import numpy as np

DTYPES = {"f4": np.float32, "f8": np.float64, "i4": np.int32, "u1": np.uint8, "i1": np.int8, "u4": np.uint32}


def decode(value) -> np.ndarray:
    """A data array from figure JSON: a typed-array dict ({dtype, bdata, shape}) or a list."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=DTYPES[value["dtype"]])
        if "shape" in value:
            shape = value["shape"]
            shape = [int(n) for n in shape.split(",")] if isinstance(shape, str) else shape
            array = array.reshape(shape)
        return array
    return np.array(value, dtype=float)


def traces_by_name(spec: dict) -> dict[str, dict]:
    return {trace.get("name"): trace for trace in spec["data"] if trace.get("name")}
