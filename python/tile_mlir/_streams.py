"""CUDA streams from Python objects: the ``CUstream`` handle an entry of a
compiled module (:mod:`tile_mlir.compiler`) and the ready copy
(:mod:`tile_mlir.ready_copy`) launch on."""

from __future__ import annotations

import sys
from typing import Any, Optional, Protocol, Tuple, Union


class HasCudaStream(Protocol):
    """An object with a ``cuda_stream`` handle (``torch.cuda.Stream``)."""

    @property
    def cuda_stream(self) -> int: ...


class CudaStreamProtocol(Protocol):
    """An object with ``__cuda_stream__`` (the CUDA stream protocol:
    ``(version, handle)``)."""

    def __cuda_stream__(self) -> Tuple[int, int]: ...


#: What ``stream=`` takes: None (torch's current stream where torch has
#: CUDA, else the default stream), a ``CUstream`` handle, or an object with
#: ``cuda_stream`` or ``__cuda_stream__``.
Stream = Optional[Union[int, HasCudaStream, CudaStreamProtocol]]


def stream_handle(stream: Stream) -> int:
    """The CUstream of `stream` (None: torch's current stream where torch
    has CUDA, else 0, the default stream)."""
    if stream is None:
        torch: Any = sys.modules.get("torch")
        if torch is not None and torch.cuda.is_initialized():
            return torch.cuda.current_stream().cuda_stream
        return 0
    if isinstance(stream, int):
        return stream
    if hasattr(stream, "cuda_stream"):
        return getattr(stream, "cuda_stream")
    if hasattr(stream, "__cuda_stream__"):
        return getattr(stream, "__cuda_stream__")()[1]
    raise TypeError("stream= takes a torch.cuda.Stream, an object with "
                    "__cuda_stream__ or a CUstream handle, not %s"
                    % type(stream).__name__)
