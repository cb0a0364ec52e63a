"""The model's speed shortcuts, fenced in one module: each builds what the public API builds,
from values that are already checked, without the checks and parses that would repeat. They
read and write private internals of ipaddress and pydantic, so nothing else in roce_cfg does
(tests/test_architecture.py keeps it so), and tests/test_model_fast.py compares each with its
public path: IPv4Interface((address, prefixlen)), a model validated from its fields, a model
with its own set of given fields. Where ipaddress's internals differ (another Python), the
import-time self-check turns ``interface`` into the constructor.

Why each is worth its fence (docs/architecture.md): ``interface`` is paid per routed port when a
config is read and again when the lint parent loads it from a worker; ``assembled`` is how a
parsed config comes back from a parse worker and how ports of one shape are built; ``lean``
keeps one set of given fields per shape of model instead of one per port; ``updated`` is
``assembled`` from a model of the same shape; ``state`` is the reading side of ``assembled``;
``maker`` and ``address`` build the parse cache's ports and BGP peers (166,400 and 131,072 of
them in the warm lint of the xl fabric, where a microsecond each is a tenth of a second).
"""

from __future__ import annotations

from collections.abc import Callable
from ipaddress import IPv4Address, IPv4Interface, IPv4Network
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # numbers.py imports this module, and it is read before pydantic is needed
    from pydantic import BaseModel

FrozenModel = TypeVar("FrozenModel", bound="BaseModel")

# The one slot IPv4Address.__init__ sets (of an IPv4Interface too): its number.
_SET_IP = vars(IPv4Address)["_ip"].__set__
_ALL_ONES = 0xFFFFFFFF


def interface(
    address: int, prefixlen: int, networks: dict[int, IPv4Network] | None = None
) -> IPv4Interface:
    """``IPv4Interface((address, prefixlen))`` for a number and a prefix length ipaddress
    accepts, built as its constructor builds it without its checks and parses: a third of its
    cost, paid per routed port when a config is read and again when the lint parent loads it
    from a worker (1,280 configs at xl). Used only where ``_ASSEMBLES`` found it builds
    what the constructor does on this Python; a host route (/32), and a number ipaddress
    refuses, are left to ipaddress. With ``networks`` (the caller's, by ``network_key``), an
    interface takes the network another interface built already, as both ends of a link
    can: a network is immutable (its cached properties but computed once)."""
    if prefixlen >= 32 or not _ASSEMBLES or not 0 <= address <= _ALL_ONES:
        return IPv4Interface((address, prefixlen))
    netmask = IPv4Network._make_netmask(prefixlen)[0]  # type: ignore[attr-defined]  # cached
    number = address & netmask._ip
    if networks is None:
        network = _network(number, netmask, prefixlen)
    else:
        key = number << 6 | prefixlen
        network = networks.get(key) or networks.setdefault(
            key, _network(number, netmask, prefixlen)
        )
    built = object.__new__(IPv4Interface)
    _SET_IP(built, address)
    built.network = network
    built.netmask = netmask
    built._prefixlen = prefixlen  # type: ignore[attr-defined]  # ipaddress's own
    return built


def _network(number: int, netmask: IPv4Address, prefixlen: int) -> IPv4Network:
    # attribute by attribute, as the constructor sets them: a dict assigned whole shares no
    # keys with its class's other instances (40 MB more in the lint parent of 1,280 configs)
    network = object.__new__(IPv4Network)
    network.network_address = _address(number)
    network.netmask = netmask
    network._prefixlen = prefixlen  # type: ignore[attr-defined]  # ipaddress's own
    if prefixlen == 31:
        network.hosts = network.__iter__  # type: ignore[method-assign]  # as __init__ does
    return network


def address(number: int) -> IPv4Address:
    """``IPv4Address(number)`` for an int, built as its constructor builds it (its one slot
    set) without its checks: a BGP peer's address in the parse cache. A number out of range
    is left to ipaddress, which refuses it."""
    if not _ASSEMBLES or not 0 <= number <= _ALL_ONES:
        return IPv4Address(number)
    return _address(number)


def _address(number: int) -> IPv4Address:
    built = object.__new__(IPv4Address)
    _SET_IP(built, number)
    return built


def _same_interface(a: IPv4Interface, b: IPv4Interface) -> bool:
    """``a`` and ``b`` hold the same state (a /31's 'hosts' compared by what it yields)."""
    mine, theirs = dict(vars(a.network)), dict(vars(b.network))
    hosts = [list(d.pop("hosts")()) for d in (mine, theirs) if "hosts" in d]
    return (
        int(a) == int(b)
        and vars(a) == vars(b)
        and mine == theirs
        and (not hosts or (len(hosts) == 2 and hosts[0] == hosts[1]))
    )


def _same_address(a: IPv4Address, b: IPv4Address) -> bool:
    return type(a) is type(b) and a._ip == b._ip and not hasattr(a, "__dict__")  # type: ignore[attr-defined]


def _assembles() -> bool:
    """Whether ``interface`` builds what the constructor builds on this Python; False too
    where ipaddress's internals it reads have changed (a newer Python): the constructor then."""
    global _ASSEMBLES
    _ASSEMBLES = True
    try:
        numbers = (0, 0x0A000001, 0xC0A80A0B, 0xFFFFFFFF)
        return all(
            _same_interface(interface(n, p), IPv4Interface((n, p)))
            for n in numbers
            for p in (0, 1, 8, 16, 24, 30, 31)
        ) and all(_same_address(address(n), IPv4Address(n)) for n in numbers)
    except Exception:  # any failure of the internals means: do not assemble
        return False


_ASSEMBLES = False
_ASSEMBLES = _assembles()


_FIELDS_SETS: dict[frozenset[str], set[str]] = {}


def lean(model: FrozenModel) -> FrozenModel:
    """``model`` with its set of given fields shared with every instance given the same ones.
    Pydantic keeps one set per instance, 728 of the 1,272 bytes of a port: 73 MB of a config
    of 100,000 ports. For frozen models only: pydantic changes the set on
    assignment, which they refuse, and ``model_copy`` copies it before adding to it."""
    assert model.model_config.get("frozen"), type(model)
    given = model.__pydantic_fields_set__
    shared = _FIELDS_SETS.setdefault(frozenset(given), set(given))
    object.__setattr__(model, "__pydantic_fields_set__", shared)
    return model


# Per model class: the set of all its fields (shared, as ``lean`` shares sets) and the fields
# that can hold models.
_TREES: dict[type, tuple[set[str], tuple[str, ...]]] = {}


def lean_tree(model: BaseModel) -> None:
    """``lean`` for ``model`` and every model it holds, at any depth: a model validated from
    JSON (the parse cache's) has a set of given fields per instance, every field of it given;
    the models of 1,280 configs loaded so held 1.1 GB where the parse's held 0.7. A model
    given every field takes its class's shared set without building a frozenset; one that has
    it already was walked already (a value held in two places: the parse cache's QoS table)."""
    cls = type(model)
    tree = _TREES.get(cls) or _tree(cls)
    given = model.__pydantic_fields_set__
    if given is tree[0]:
        return
    if len(given) == len(tree[0]):  # a subset of the fields as big as all of them: all
        object.__setattr__(model, "__pydantic_fields_set__", tree[0])
    else:
        lean(model)
    held = model.__dict__
    for name in tree[1]:
        _lean_value(held[name])


def _lean_value(value: object) -> None:
    if isinstance(value, tuple | list):
        for item in value:
            _lean_value(item)
    elif isinstance(value, dict):
        for item in value.values():
            _lean_value(item)
    elif hasattr(value, "__pydantic_fields_set__"):
        lean_tree(value)  # type: ignore[arg-type]  # a model: what has the attribute


def _tree(cls: type[BaseModel]) -> tuple[set[str], tuple[str, ...]]:
    assert cls.model_config.get("frozen"), cls  # as lean: a set shared by models never changed
    every = frozenset(cls.model_fields)
    nested = tuple(n for n, f in cls.model_fields.items() if _holds_models(f.annotation))
    tree = _TREES[cls] = (_FIELDS_SETS.setdefault(every, set(every)), nested)
    return tree


def _holds_models(hint: object) -> bool:
    from typing import get_args

    todo = [hint]
    while todo:
        one = todo.pop()
        if isinstance(one, type) and hasattr(one, "model_fields"):
            return True
        todo.extend(get_args(one))
    return False


def assembled(cls: type[FrozenModel], fields: dict[str, Any], given: set[str]) -> FrozenModel:
    """A model of ``fields`` (every field, in order), as pydantic's ``__setstate__`` restores
    one: without validating them again. Only for fields a model of ``cls`` held already (a
    pickled one) or that are of their field's type and domain (``updated``)."""
    model = cls.__new__(cls)
    object.__setattr__(model, "__dict__", fields)
    object.__setattr__(model, "__pydantic_fields_set__", given)
    object.__setattr__(model, "__pydantic_extra__", None)
    object.__setattr__(model, "__pydantic_private__", None)
    return model


def maker(
    cls: type[FrozenModel], given: set[str] | None = None
) -> Callable[[dict[str, Any]], FrozenModel]:
    """``assembled`` for models of ``cls`` given ``given`` (default: every field, the set
    ``lean_tree`` shares), as a function that sets the four slots through their descriptors
    (no attribute lookup per model: 0.5 of a microsecond of ``assembled``'s 1.3). Only for
    fields of their field's type and domain, every field, in order."""
    from pydantic import BaseModel

    slots = vars(BaseModel)
    set_dict, set_given = slots["__dict__"].__set__, slots["__pydantic_fields_set__"].__set__
    set_extra, set_private = (
        slots["__pydantic_extra__"].__set__,
        slots["__pydantic_private__"].__set__,
    )
    if given is None:
        given = (_TREES.get(cls) or _tree(cls))[0]
    new = object.__new__

    def make(fields: dict[str, Any]) -> FrozenModel:
        model: FrozenModel = new(cls)
        set_dict(model, fields)
        set_given(model, given)
        set_extra(model, None)
        set_private(model, None)
        return model

    return make


def template(cls: type[BaseModel], fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` (every field of ``cls``, in order) as a dict whose copies ``maker`` may take:
    set attribute by attribute on a bare instance, so that CPython keeps its keys once for the
    class and each copy holds its values alone (296 bytes a port instead of 464: 28 MB of the
    xl fabric's ports), copied faster too. What a copy holds is the same either way."""
    bare = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(bare, name, value)  # BaseModel's own would validate
    return bare.__dict__


def updated(model: FrozenModel, changes: dict[str, Any]) -> FrozenModel:
    """``model.model_copy(update=changes)`` for ``changes`` of their fields' types and domains
    among the fields ``model`` was given: its other fields and its set of given fields shared,
    not copied (one set per shape of model, as ``lean`` keeps it), nothing validated
    (``assembled``). How ports that repeat the first port's lines but for their own are built
    (``parse/ports._port``): validating every port again was a sixth of an xl normalising."""
    return assembled(type(model), {**model.__dict__, **changes}, model.__pydantic_fields_set__)


def state(model: BaseModel) -> tuple[type[BaseModel], dict[str, Any], set[str]] | None:
    """What ``assembled`` takes to rebuild ``model``: its class, fields and set of given
    fields; None for a model with extra or private values (none of ours has), which then
    pickles pydantic's own way."""
    if model.__pydantic_extra__ is not None or model.__pydantic_private__ is not None:
        return None
    return type(model), model.__dict__, model.__pydantic_fields_set__
