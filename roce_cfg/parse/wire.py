"""A parsed config as a parse worker sends it to the parent process: pickled with its addresses as
numbers and its models as their class and fields, which the parent reads back without parsing
text or validating again (model/fast.py builds what the public constructors build).
"""

from __future__ import annotations

import copyreg
import io
import pickle
from collections.abc import Callable
from ipaddress import IPv4Interface, IPv4Network
from typing import Any, get_args

from pydantic import BaseModel

from roce_cfg.model import numbers
from roce_cfg.model.device import assembled
from roce_cfg.model.fast import state
from roce_cfg.parse.result import ParsedConfig


def dumps(config: ParsedConfig) -> bytes:
    """The model pickled with its addresses as numbers: ipaddress pickles an interface or a
    network as its text, parsed again on loading (half of what unpickling an xl leaf cost the
    lint parent, 1,280 times); and its models as their fields (``_model_state``)."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _AS_NUMBERS
    pickler.dump(config)
    return out.getvalue()


def _interface_numbers(value: IPv4Interface) -> tuple[Callable[..., Any], tuple[int, int]]:
    # int() of the interface is its address's number; ``.ip`` built an IPv4Address for it
    return numbers.interface, (int(value), value.network.prefixlen)


def _network_numbers(value: IPv4Network) -> tuple[type[IPv4Network], tuple[tuple[int, int]]]:
    return IPv4Network, ((int(value.network_address), value.prefixlen),)


def _model_state(model: BaseModel) -> Any:
    """A model as its class, fields and set of given fields (``model.fast.state``). Pydantic's
    own pickling sends a dict of its four parts per model and reads it back in Python: a third
    of what pickling an xl config cost its worker. A model with extra or private values (none
    of ours has) pickles pydantic's way."""
    found = state(model)
    if found is None:
        return model.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    return assembled, found


def _models_of(cls: type[BaseModel], found: set[type[BaseModel]]) -> set[type[BaseModel]]:
    """``cls`` and every model class its fields hold, at any depth."""
    found.add(cls)
    todo = [f.annotation for f in cls.model_fields.values()]
    while todo:
        hint = todo.pop()
        if isinstance(hint, type) and issubclass(hint, BaseModel):
            if hint not in found:
                _models_of(hint, found)
        else:
            todo.extend(get_args(hint))
    return found


_AS_NUMBERS: dict[type, Callable[[Any], Any]] = {
    **copyreg.dispatch_table,
    IPv4Interface: _interface_numbers,
    IPv4Network: _network_numbers,
    **dict.fromkeys(_models_of(ParsedConfig, set()), _model_state),
}
